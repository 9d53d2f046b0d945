// 10.3.4.1: only array, sum, product, min, max may be used as reduction function names
function F
  input Real u;
  output Real y;
algorithm
  y := u;
end F;
model ReductionUserFunction
  Real s = F(i for i in 1:3);
end ReductionUserFunction;
