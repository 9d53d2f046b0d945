// A Schmitt trigger with an integrator, reduced: y = k·x with k = 2 feeding back, der(x) = y − x,
// so der(x) = x. Started at x = 0 it is at rest in an unstable equilibrium (λ = 1 /s over a 3 s
// run): the run stays at 0 only because nothing perturbs it, and rtc says so.
model UnstableRest
  parameter Real k = 2;
  Real x(start = 0, fixed = true);
  Real y = k*x;
equation
  der(x) = y - x;
  annotation(experiment(StopTime = 3, Interval = 0.01));
end UnstableRest;
