// 8.6: a parameter with fixed = false needs additional (initial) equations
model ParameterFixedFalseNoEquation
  parameter Real p(fixed = false);
  Real x = p;
end ParameterFixedFalseNoEquation;
