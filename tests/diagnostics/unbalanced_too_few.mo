model TooFewEquations
  Real x(start = 1);
  Real y;
  Real z;
equation
  der(x) = -x + y;
  y = 2*x;
end TooFewEquations;
