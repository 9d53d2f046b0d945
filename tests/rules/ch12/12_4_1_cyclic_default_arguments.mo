// 12.4.1: dependencies between input default values must be acyclic
function F
  input Real a = b;
  input Real b = a;
  output Real y;
algorithm
  y := a + b;
end F;
model CyclicDefaultArguments
  Real x;
equation
  x = F();
end CyclicDefaultArguments;
