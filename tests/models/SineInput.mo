// SineResponse with the sine supplied from outside: `u` is a top-level input, so a CSV
// (or UDP) source drives it. tests/methods.rs feeds it sin(5·t) and compares with the model
// that computes the sine itself: multi-stage formulas must read the input at their stage times.
model SineInput
  parameter Real wn = 10;
  parameter Real zeta = 0.5;
  input Real u;
  Real x(start = 0, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = wn^2*(u - x) - 2*zeta*wn*v;
end SineInput;
