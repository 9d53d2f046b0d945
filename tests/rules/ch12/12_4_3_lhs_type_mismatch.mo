// 12.4.3: each component reference in the output list must agree in type with the corresponding output
function F
  input Real u;
  output Real a;
  output Real b;
algorithm
  a := u;
  b := 2*u;
end F;
model LhsTypeMismatch
  Real x;
  Boolean y;
algorithm
  (x, y) := F(time);
end LhsTypeMismatch;
