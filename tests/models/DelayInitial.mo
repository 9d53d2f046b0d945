// A delay in a model whose initial equations are more than its free states: rtc check solves
// the model at the start time (the delay reads its expression there) without a --step.
model DelayInitial
  parameter Real T = 0.3;
  Real x(start = 1);
  Real y = delay(x, T);
initial equation
  x = 2;
  der(x) = 0;
equation
  der(x) = -x + 2;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end DelayInitial;
