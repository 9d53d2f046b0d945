model Broken "A first-order lag with a typo"
  parameter Real T = 0.5 "time constant";
  Real x(start = 1, fixed = true);
equation
  der(x) = -x/Tau;
end Broken;
