// A fixed start value on the negative of a state: y = −x with y(start = 2, fixed = true)
// starts x at −2 (x's own start value, without `fixed`, gives way). x(t) = −2·exp(−t).
model NegatedStart
  Real x(start = 5);
  Real y(start = 2, fixed = true);
equation
  der(x) = -x;
  y = -x;
  annotation(experiment(StopTime = 2, Interval = 0.01));
end NegatedStart;
