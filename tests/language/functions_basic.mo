// Functions (specification 12.1-12.4): inputs with default values, positional and named
// arguments, several outputs (a tuple equation and the first output in an expression),
// protected variables with bindings, if/elseif, and calls of functions from functions.
// run: method=be step=0.125 stop=1
// expect: a 0.75
// expect: b 1.5
// expect: s 2
// expect: d 0
// expect: lim -0.5
// expect: c 3.5
model FunctionsBasic
  function affine
    input Real x;
    input Real k = 1;
    input Real offset = 0;
    output Real y;
  algorithm
    y := k * x + offset;
  end affine;
  function sumDiff
    input Real a;
    input Real b;
    output Real s;
    output Real d;
  protected
    Real twiceA = 2 * a;
  algorithm
    s := a + b;
    d := twiceA - s;
  end sumDiff;
  function clamp
    input Real u;
    input Real lo;
    input Real hi;
    output Real y;
  algorithm
    if u > hi then
      y := hi;
    elseif u < lo then
      y := lo;
    else
      y := u;
    end if;
  end clamp;
  function chain
    input Real x;
    output Real y;
  algorithm
    y := affine(x, offset = 2.5) + sumDiff(x, 0);
  end chain;
  Real a, b, s, d, lim, c;
equation
  a = affine(time, 0.75);
  b = affine(time, offset = 0.5);
  (s, d) = sumDiff(time, time);
  lim = clamp(-time, hi = 0.5, lo = -0.5);
  c = chain(0.5);
end FunctionsBasic;
