// 12.4.1: default values of inputs shall not depend on non-input variables of the function
function F
  input Real a = c;
  output Real y;
protected
  Real c = 1;
algorithm
  y := a;
end F;
model DefaultDependsOnLocal
  Real x;
equation
  x = F();
end DefaultDependsOnLocal;
