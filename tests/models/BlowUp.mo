// der(x) = x^2, x(0) = 1: x = 1/(1 - t), 33.3 at t = 0.97. An implicit method's step
// equation has no real root once the step is long against the time left to the blow-up:
// radau at the default step (0.97 / 4) stops in Newton at its last step; at half that step
// it gets through, and the step-halving check refines it from there.
model BlowUp
  Real x(start = 1, fixed = true);
equation
  der(x) = x^2;
  annotation(experiment(StopTime = 0.97, Interval = 0.97));
end BlowUp;
