// A state tied to a top-level input: index reduction would need der(u), which rtc does not
// have (the environment gives u only), so the model stays structurally singular.
model IndexNeedsInputDerivative
  input Real u;
  Real x(start = 0);
  Real y;
equation
  der(x) = y;
  x = u;
end IndexNeedsInputDerivative;
