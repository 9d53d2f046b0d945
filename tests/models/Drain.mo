// A tank draining through an orifice (Torricelli): q = a*sqrt(2*g*level) while level > 0.
// The square root's slope is unbounded where the tank runs empty.
model Drain
  parameter Real a = 0.1 "orifice area";
  parameter Real A = 1 "tank area";
  parameter Real g = 9.81;
  Real level(start = 1, fixed = true);
  Real q;
equation
  A*der(level) = -q;
  q = a*sqrt(max(0, 2*g*level));
  annotation(experiment(StopTime = 8, Interval = 0.1));
end Drain;
