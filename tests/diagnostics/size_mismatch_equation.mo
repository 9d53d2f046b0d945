model SizeMismatchEquation
  Real x[3];
  Real y[2];
equation
  x = {1, 2, 3};
  y = x;
end SizeMismatchEquation;
