model Bounded "a circuit whose parameter and input declare their bounds"
  parameter Real R(min = 0) = 1.2 "resistance";
  input Real u(start = 5, min = -10, max = 10) "voltage";
  Real i(start = 0, fixed = true);
equation
  0.05*der(i) = u - R*i;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end Bounded;
