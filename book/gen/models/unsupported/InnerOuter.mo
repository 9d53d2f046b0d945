model InnerOuter
  inner parameter Real g = 9.81;
  Real x(start = 1, fixed = true);
equation
  der(x) = -g*x;
end InnerOuter;
