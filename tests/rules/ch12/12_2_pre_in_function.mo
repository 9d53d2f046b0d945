// 12.2: a function cannot contain calls to pre
function F
  input Real u;
  output Real y;
algorithm
  y := pre(u);
end F;
model PreInFunction
  Real x;
equation
  x = F(time);
end PreInFunction;
