// 10.5: an array cannot be indexed with more subscripts than it has dimensions
model TooManySubscripts
  Real x[3] = {1, 2, 3};
  Real y = x[1, 1];
end TooManySubscripts;
