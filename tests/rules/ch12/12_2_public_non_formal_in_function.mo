// 12.2: only input and output formal parameters are allowed in the public section of a function
function F
  input Real u;
  output Real y;
  Real t;
algorithm
  t := u;
  y := t;
end F;
model PublicNonFormalInFunction
  Real x;
equation
  x = F(time);
end PublicNonFormalInFunction;
