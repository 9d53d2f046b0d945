// 12.2: a function cannot contain calls to der
function F
  input Real u;
  output Real y;
algorithm
  y := der(u);
end F;
model DerInFunction
  Real x;
equation
  x = F(time);
end DerInFunction;
