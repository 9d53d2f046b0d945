model InitialEquation "initial equations are rejected by rtc run with a located diagnostic"
  Real x;
initial equation
  x = 2;
equation
  der(x) = -x;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end InitialEquation;
