// args: --method mixed --implicit v --step 0.01 --emit system
// The oscillator with v integrated by backward Euler and x by forward Euler (mixed mode).
model Oscillator
  input Real u(start = 0) "driving force";
  parameter Real d = 0.3 "damping";
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -x - d*v*abs(v) + u;
end Oscillator;
