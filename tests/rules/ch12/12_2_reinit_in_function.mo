// 12.2: a function cannot contain calls to reinit
function F
  input Real u;
  output Real y;
algorithm
  y := u;
  reinit(y, 0);
end F;
model ReinitInFunction
  Real x;
equation
  x = F(time);
end ReinitInFunction;
