// 4.8.1: the value of a variable must satisfy its min/max attributes (predefined assert; here a parameter above max)
model ParameterOutsideMax
  parameter Real p(max = 1) = 2;
  Real x = p;
end ParameterOutsideMax;
