// 7.1.3: a function may only extend a function or a class
model M
  input Real u;
  output Real y;
end M;

function F
  extends M;
algorithm
  y := 2 * u;
end F;

model FunctionExtendsModel
  Real z = F(1);
end FunctionExtendsModel;
