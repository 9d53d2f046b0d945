// 12.2: a function shall not have equations
function F
  input Real u;
  output Real y;
equation
  y = u;
end F;
model EquationInFunction
  Real x;
equation
  x = F(time);
end EquationInFunction;
