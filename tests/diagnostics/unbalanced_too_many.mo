model TooManyEquations
  Real x(start = 1);
  Real y;
equation
  der(x) = -x;
  y = 2*x;
  y = 3*x;
end TooManyEquations;
