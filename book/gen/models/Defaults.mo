model Defaults "a parameter without a value, assertions, experiment"
  parameter Real T = 0.5 "time constant";
  parameter Real G(start = 2) "gain, no value given";
  Real x(start = 1, fixed = true);
equation
  assert(T > 0, "T must be positive");
  assert(x < 10, "x too large");
  der(x) = -G*x/T;
  annotation(experiment(StartTime = 0, StopTime = 5, Interval = 0.01, Tolerance = 1e-6));
end Defaults;
