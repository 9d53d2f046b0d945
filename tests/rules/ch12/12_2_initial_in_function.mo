// 12.2: a function cannot contain calls to initial
function F
  input Real u;
  output Real y;
algorithm
  y := if initial() then 1 else u;
end F;
model InitialInFunction
  Real x;
equation
  x = F(time);
end InitialInFunction;
