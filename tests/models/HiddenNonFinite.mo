// A value that overflows while everything computed from it stays finite: w = exp(100 x) is
// infinite from x > 7.1 on, but it is read only as a denominator (1/w = 0) and in a
// comparison. Generated code adds to its finiteness sums only the values no later value
// propagates (codegen summed_checks); w must be one of them, so that the JIT stops at the step
// the interpreter stops, naming w (tests/it/codegen.rs, hidden_non_finite_values_are_found).
model HiddenNonFinite
  Real x(start = 0, fixed = true);
  Real w "overflows at x > 7.1";
  Real v;
  Real s;
  Real y "reads w through a product: seen through it";
equation
  der(x) = 1 + v + s;
  w = exp(100*x);
  v = 1/w;
  s = noEvent(if w > 1e300 then 0 else 0);
  y = 2*v;
end HiddenNonFinite;
