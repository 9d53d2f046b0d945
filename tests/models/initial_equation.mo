model InitialEquation "initial equations rtc does not solve yet (a steady state) are rejected with a located diagnostic"
  Real x;
initial equation
  der(x) = 0;
equation
  der(x) = 1 - x;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end InitialEquation;
