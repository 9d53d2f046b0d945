// A counter on a sample clock whose ticks fall on the step grid (0.01 = 50 steps of 0.0002):
// the model's clock sums its steps (0.0798 + 0.0002 = 0.08000000000000002) where the frame
// rows are start + k·h (0.08); the rows at each tick must not go back in time.
model SampledCounter
  Integer n(start = 0, fixed = true);
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when sample(0, 0.01) then
    n = pre(n) + 1;
  end when;
  annotation(experiment(StopTime = 0.1, Interval = 0.0002));
end SampledCounter;
