// A stiff linear mode (backward Euler damps it cheapest: rtc chooses it) beside der(z) = z^2,
// z(0) = 1: z = 1/(1 - t), 5000 at t = 0.9998. Backward Euler's step equation
// z1 - h*z1^2 = z0 has a real root only while h <= 1/(4*z0): near the end only steps below
// 5e-5 get through, past the four halvings of the step-halving check. There, backward
// Euler's error (first order, on a solution growing as 1/(1 - t)) is not within the
// tolerance at the rescue's floor; radau's (third order) is, at a step 16 times larger.
model BlowUpRadau
  Real x(start = 4, fixed = true);
  Real z(start = 1, fixed = true);
equation
  der(x) = -1e5 * (x - 0.7);
  der(z) = z^2;
  annotation(experiment(StopTime = 0.9998, Interval = 0.0009998));
end BlowUpRadau;
