// 12.2: a function cannot contain calls to delay
function F
  input Real u;
  output Real y;
algorithm
  y := delay(u, 0.1);
end F;
model DelayInFunction
  Real x;
equation
  x = F(time);
end DelayInFunction;
