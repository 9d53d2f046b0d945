// 12.2: a function cannot contain calls to sample
function F
  input Real u;
  output Real y;
algorithm
  y := if sample(0, 0.1) then 1 else u;
end F;
model SampleInFunction
  Real x;
equation
  x = F(time);
end SampleInFunction;
