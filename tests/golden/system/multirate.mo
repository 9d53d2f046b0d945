// args: --method multirate --fast v --ratio 4 --step 0.01 --emit system
// The oscillator with v the fast state, four forward Euler sub-steps per step (multi-rate).
model Oscillator
  input Real u(start = 0) "driving force";
  parameter Real d = 0.3 "damping";
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -x - d*v*abs(v) + u;
end Oscillator;
