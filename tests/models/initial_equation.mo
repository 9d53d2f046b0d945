model InitialEquation "a steady state: the initial system der(x) = 0 gives x = 1"
  Real x;
initial equation
  der(x) = 0;
equation
  der(x) = 1 - x;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end InitialEquation;
