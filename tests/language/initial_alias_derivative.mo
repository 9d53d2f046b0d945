// An initial equation (specification 8.6) on the derivative of an alias: with y = x,
// `der(y) = 1` is der(x) = v = 1 (the initial system read der(y) as a value it did not have,
// and failed). Backward Euler integrates x' = v, v' = 0 exactly: x(1) = 2 + 1.
// run: method=be step=0.125 stop=1
// expect: x 3
// expect: v 1
model InitialAliasDerivative
  Real x(start = 2, fixed = true);
  Real v;
  Real y;
equation
  der(x) = v;
  der(v) = 0;
  y = x;
initial equation
  der(y) = 1;
end InitialAliasDerivative;
