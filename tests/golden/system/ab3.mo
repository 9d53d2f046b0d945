// args: --method ab3 --step 0.01 --emit system
// A damped nonlinear oscillator driven by an input, the same model for every method: what
// inline integration makes of it with ab3.
model Oscillator
  input Real u(start = 0) "driving force";
  parameter Real d = 0.3 "damping";
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -x - d*v*abs(v) + u;
end Oscillator;
