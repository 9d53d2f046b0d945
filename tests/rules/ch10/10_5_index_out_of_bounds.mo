// 10.5: an index must lie within the dimension's lower and upper bounds
model IndexOutOfBounds
  Real x[3] = {1, 2, 3};
  Real y = x[4];
end IndexOutOfBounds;
