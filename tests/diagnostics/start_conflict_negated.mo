// y is the negative of x; their fixed start values must then be opposite (1 and -1), and
// 1 and 1 conflict.
model StartConflictNegated
  Real x(start = 1, fixed = true);
  Real y(start = 1, fixed = true);
equation
  der(x) = -x;
  y = -x;
end StartConflictNegated;
