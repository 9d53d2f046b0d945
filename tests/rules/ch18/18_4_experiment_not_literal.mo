// 18.4: experiment option values must be numeric literals (not expressions)
model ExperimentNotLiteral
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(experiment(StopTime = 1 + 1));
end ExperimentNotLiteral;
