model InitialOverdetermined "an initial equation for a state that is already fixed"
  Real x(start = 0, fixed = true);
initial equation
  der(x) = 0;
equation
  der(x) = 1 - x;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end InitialOverdetermined;
