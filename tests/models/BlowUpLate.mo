// A stiff square-root law (as RootSettle: radau's stage values overshoot below zero at every
// step tried, so backward Euler takes over) beside der(z) = z^2, z(0) = 1: z = 1/(1 - t),
// 20 at t = 0.95. Backward Euler's step equation z1 - h*z1^2 = z0 has a real root only
// while h <= 1/(4*z0): near the end only steps below 0.0125 get through, past the four
// halvings of the step-halving check; backward Euler's step is halved further until its run
// gets through, and where the check does not confirm that run, radau gets the same search.
model BlowUpLate
  Real x(start = 4, fixed = true);
  Real z(start = 1, fixed = true);
equation
  der(x) = -1000 * (sqrt(x) - 0.7);
  der(z) = z^2;
  annotation(experiment(StopTime = 0.95, Interval = 0.95));
end BlowUpLate;
