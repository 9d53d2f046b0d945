// 8.3.1: the two sides of an equality equation must have compatible types
model EquationTypeMismatch
  Real x;
equation
  x = true;
end EquationTypeMismatch;
