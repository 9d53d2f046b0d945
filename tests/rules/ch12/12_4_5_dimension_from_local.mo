// 12.4.5: non-colon dimension sizes of non-input arrays in functions must be given by inputs, constants or parameters
function F
  input Real u[:];
  output Real y[n];
protected
  Integer n;
algorithm
  n := size(u, 1);
  y := u;
end F;
model DimensionFromLocal
  Real x[2];
equation
  x = F({time, time});
end DimensionFromLocal;
