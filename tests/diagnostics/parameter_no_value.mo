model ParameterNoValue
  parameter Real k;
  Real x(start = 1);
equation
  der(x) = -k*x;
end ParameterNoValue;
