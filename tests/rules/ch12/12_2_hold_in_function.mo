// 12.2: a function cannot contain calls to synchronous-language operators (e.g. hold)
function F
  input Real u;
  output Real y;
algorithm
  y := hold(u);
end F;
model HoldInFunction
  Real x;
equation
  x = F(time);
end HoldInFunction;
