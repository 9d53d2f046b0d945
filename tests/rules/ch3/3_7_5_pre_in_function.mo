// 3.7.5: pre shall not be used in a function class
function F
  input Real u;
  output Real y;
algorithm
  y := pre(u);
end F;
model PreInFunction
  Real z = F(time);
end PreInFunction;
