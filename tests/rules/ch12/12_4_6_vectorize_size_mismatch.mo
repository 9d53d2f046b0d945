// 12.4.6: all foreach arguments of a vectorized call must have the same number and sizes of dimensions
function F
  input Real a;
  input Real b = 1;
  output Real y;
algorithm
  y := a + b;
end F;
model VectorizeSizeMismatch
  Real x[2];
equation
  x = F({1, 2}, {time, time, time});
end VectorizeSizeMismatch;
