// 18.4: experiment Interval and Tolerance are unsigned numbers (no sign)
model ExperimentSignedInterval
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(experiment(StopTime = 1, Interval = -0.1));
end ExperimentSignedInterval;
