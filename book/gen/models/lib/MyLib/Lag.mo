within MyLib;
model Lag "First-order lag"
  parameter Real T = 0.5 "time constant";
  input Real u "input";
  Real y(start = 0, fixed = true) "output";
equation
  T*der(y) = u - y;
end Lag;
