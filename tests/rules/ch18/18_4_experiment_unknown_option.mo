// 18.4: experiment only accepts the options StartTime, StopTime, Interval, Tolerance
model ExperimentUnknownOption
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(experiment(StopTme = 1));
end ExperimentUnknownOption;
