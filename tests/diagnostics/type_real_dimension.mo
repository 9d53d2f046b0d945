// A Real parameter as an array size.
model TypeRealDimension
  parameter Real n = 3;
  Real x[n];
equation
  x = fill(1, 3);
end TypeRealDimension;
