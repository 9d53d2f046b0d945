// 12.9: external call arguments may only be component references, scalar constants and size(array, constant)
pure function F
  input Real u;
  output Real y;
external "C" y = e(u + 1);
end F;
model ExternalArgExpression
  Real x;
equation
  x = F(time);
end ExternalArgExpression;
