// Specification 12.4 and 12.7: functions with loops are compiled out of line (once per
// argument shape, called from every site), also with several outputs, a record output,
// Integer arguments known at compile time (the shape: n sizes the loop) and a Boolean
// argument that changes (a placeholder); Inline = false forces a straight-line function
// out of line. With x = time + 1 at t = 1 (x = 2, FE integrates der(x) = 1 exactly):
// powSum(x, 3) = 2 + 4 + 8 = 14, (s, p) of {x, 3} = (5, 6), stats(x).hi = 4, .lo = 1,
// pick(x, time > 0.5) = 2·x = 4, twice(x) = 4.
// run: method=fe step=0.25 stop=1
// expect: a 14
// expect: s 5
// expect: p 6
// expect: hi 4
// expect: lo 1
// expect: c 4
// expect: d 4
model FunctionsOutOfLine
  record Range
    Real lo;
    Real hi;
  end Range;
  function powSum "x + x^2 + ... + x^n"
    input Real x;
    input Integer n;
    output Real y = 0;
  protected
    Real t = 1;
  algorithm
    for k in 1:n loop
      t := t * x;
      y := y + t;
    end for;
  end powSum;
  function sumProd
    input Real v[:];
    output Real s = 0;
    output Real p = 1;
  algorithm
    for k in 1:size(v, 1) loop
      s := s + v[k];
      p := p * v[k];
    end for;
  end sumProd;
  function stats
    input Real x;
    output Range r;
  protected
    Real m = x;
  algorithm
    for k in 1:2 loop
      m := max(m, x * k);
    end for;
    r := Range(lo = x - 1, hi = m);
  end stats;
  function pick
    input Real x;
    input Boolean b;
    output Real y = 0;
  algorithm
    for k in 1:2 loop
      y := if b then y + x else y;
    end for;
  end pick;
  function twice
    input Real x;
    output Real y;
  algorithm
    y := 2 * x;
    annotation(Inline = false);
  end twice;
  Real x(start = 1, fixed = true);
  Real a;
  Real a2;
  Real s;
  Real p;
  Range r;
  Real hi;
  Real lo;
  Real c;
  Real d;
equation
  der(x) = 1;
  a = powSum(x, 3);
  a2 = powSum(2 * x, 3);
  (s, p) = sumProd({x, 3});
  r = stats(x);
  hi = r.hi;
  lo = r.lo;
  c = pick(x, time > 0.5);
  d = twice(x);
end FunctionsOutOfLine;
