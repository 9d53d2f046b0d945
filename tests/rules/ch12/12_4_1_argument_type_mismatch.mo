// 12.4.1: the type of each argument must agree with the formal parameter (up to standard coercion)
function F
  input Real a;
  input Real b = 1;
  output Real y;
algorithm
  y := a + b;
end F;
model ArgumentTypeMismatch
  Real x;
equation
  x = F(true);
end ArgumentTypeMismatch;
