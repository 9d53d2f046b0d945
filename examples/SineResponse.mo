// A damped second-order system driven by a sine: x'' + 2*zeta*wn*x' + wn^2*x = wn^2*sin(w*t),
// from rest. The closed-form solution (steady sine response plus a decaying transient) is
//   x(t) = |G| sin(w t + phi) + exp(-zeta wn t) (C1 cos(wd t) + C2 sin(wd t)),
//   G = wn^2 / (wn^2 - w^2 + 2 i zeta wn w), wd = wn sqrt(1 - zeta^2),
//   C1 = -|G| sin(phi), C2 = (zeta wn C1 - w |G| cos(phi)) / wd,
// which tests/methods.rs uses to measure every method's order. The input is an expression of
// time, so multi-stage formulas sample it at their stage times.
model SineResponse "Second-order system driven by a sine, from rest"
  parameter Real wn(unit = "rad/s") = 10 "undamped natural frequency";
  parameter Real zeta = 0.5 "damping ratio";
  parameter Real w(unit = "rad/s") = 5 "input frequency";
  Real u "input";
  Real x(start = 0, fixed = true) "output";
  Real v(start = 0, fixed = true) "der(x)";
equation
  u = sin(w*time);
  der(x) = v;
  der(v) = wn^2*(u - x) - 2*zeta*wn*v;
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-2));
end SineResponse;
