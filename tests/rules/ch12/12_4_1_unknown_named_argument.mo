// 12.4.1: a named argument must name an input formal parameter of the function
function F
  input Real a;
  input Real b = 1;
  output Real y;
algorithm
  y := a + b;
end F;
model UnknownNamedArgument
  Real x;
equation
  x = F(time, c = 2);
end UnknownNamedArgument;
