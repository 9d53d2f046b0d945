// 12.2: elements of a function shall not have prefixes inner or outer
function F
  input Real u;
  output Real y;
protected
  inner Real z;
algorithm
  z := u;
  y := z;
end F;
model InnerInFunction
  Real x;
equation
  x = F(time);
end InnerInFunction;
