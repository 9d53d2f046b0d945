// 12.4.4: binding equations of non-input components of a function must be acyclic
function F
  input Real u;
  output Real y;
protected
  Real a = b + u;
  Real b = a;
algorithm
  y := a;
end F;
model CyclicBindingsInFunction
  Real x;
equation
  x = F(time);
end CyclicBindingsInFunction;
