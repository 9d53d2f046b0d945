// A function's output and protected arrays sized by its inputs and constants, or by
// variables bound to expressions of these (specification 12.4.5 and 12.2: sizes known when
// the function is entered; the MSL's `Integer m = size(x, 1)`): Twice doubles a vector whose
// size is its input's, Pad puts it into m = 3 places after a leading zero, Halve sizes its
// result by a protected n bound to the input's size and a work array by size() of the
// output. At t = 1, with u = {time, 2*time}: Twice gives {2, 4}, Pad gives {0, 2, 4}, Halve
// gives {0.5, 1}; their sums are 6, 6 and 1.5.
// run: method=be step=0.5 stop=1
// expect: a 6
// expect: b 6
// expect: c 1.5
model FunctionSizesFromInputs
  function Twice
    input Real u[:];
    output Real y[size(u, 1)];
  protected
    Real w[size(u, 1)];
  algorithm
    w := 2*u;
    y := w;
  end Twice;
  function Pad
    input Real u[:];
    output Real y[m];
  protected
    constant Integer m = 3;
  algorithm
    y := cat(1, {0}, u);
  end Pad;
  function Halve
    input Real u[:];
    output Real y[n];
  protected
    Integer n = size(u, 1);
    Real w[size(y, 1)];
  algorithm
    w := u/2;
    y := w;
  end Halve;
  Real a = sum(Twice({time, 2*time}));
  Real c = sum(Halve({time, 2*time}));
  Real b = sum(Pad(Twice({time, 2*time})));
end FunctionSizesFromInputs;
