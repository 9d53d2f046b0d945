// SecondOrder: linear second-order system with a unit step input, used for dynamic-error
// (order and stability) checks of the fixed-step integration methods.
// Source: standard damped oscillator x'' + 2*zeta*wn*x' + wn^2*x = wn^2*u;
//         reference tests/refdata/second_order.py (second_order.csv, closed form;
//         exact fixed-step FE/BE/trapezoid/Radau IIA solutions in
//         second_order_discrete_h0.01.csv).
// Closed form: x = 1 - exp(-5t)*(cos(wd*t) + sin(wd*t)/sqrt(3)), wd = 5*sqrt(3) = 8.660254;
// eigenvalues -5 +- 8.660254j, so FE needs h < 0.1.
model SecondOrder "Second-order system x'' + 2*zeta*wn*x' + wn^2*x = wn^2*u, unit step input"
  parameter Real wn(unit = "rad/s") = 10 "undamped natural frequency";
  parameter Real zeta = 0.5 "damping ratio";
  Real u "input: unit step at t = 0";
  Real x(start = 0, fixed = true) "output";
  Real v(start = 0, fixed = true) "derivative of the output, v = der(x)";
equation
  u = 1;
  der(x) = v;
  der(v) = wn^2*(u - x) - 2*zeta*wn*v;
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-3));
end SecondOrder;
