// Pendulum: damped mathematical pendulum in normalised form.
// Source: F.E. Cellier, E. Kofman, "Continuous System Simulation", Springer 2006,
//         homework problem H10.2; reference tests/refdata/pendulum.py
//         (pendulum_b0.02.csv; with b = 0: pendulum_b0.csv).
//   x1 = angle, x2 = angular velocity;  x1' = x2,  x2' = -sin(x1) - b*x2,  x(0) = (0.5, 0.5)
// Jacobian eigenvalues -b/2 +- j*sqrt(cos(x1) - b^2/4): FE is stable only for h < b/cos(x1)
// (0.0228 at t = 0, -> 0.02 as the swing dies out) and never for b = 0.
model Pendulum "Damped pendulum x1' = x2, x2' = -sin(x1) - b*x2 (Cellier & Kofman H10.2)"
  parameter Real b = 0.02 "damping coefficient (b = 0: undamped)";
  Real x1(unit = "rad", start = 0.5, fixed = true) "pendulum angle";
  Real x2(unit = "rad/s", start = 0.5, fixed = true) "angular velocity";
equation
  der(x1) = x2;
  der(x2) = -sin(x1) - b*x2;
  annotation(experiment(StartTime = 0, StopTime = 500, Interval = 0.5));
end Pendulum;
