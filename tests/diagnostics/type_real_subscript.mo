// A Real as an array subscript, even one with a whole value.
model TypeRealSubscript
  parameter Real k = 2;
  Real x[3];
equation
  x = {1, 2, 3};
  x[k] = 5;
end TypeRealSubscript;
