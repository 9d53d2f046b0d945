// 12.4.3: the parenthesized left-hand side of a multi-output call must be a list of component references
function F
  input Real u;
  output Real a;
  output Real b;
algorithm
  a := u;
  b := 2*u;
end F;
model LhsNotComponentRefs
  Real x, y;
equation
  (x + 1, y) = F(time);
end LhsNotComponentRefs;
