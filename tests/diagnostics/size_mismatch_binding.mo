model SizeMismatchBinding
  parameter Real a[2] = {1, 2, 3};
  Real x;
equation
  x = a[1];
end SizeMismatchBinding;
