// 4.4.2: array dimensions shall be scalar expressions
model DimensionNotScalar
  parameter Integer n[1] = {2};
  Real x[n] = {1, 2};
end DimensionNotScalar;
