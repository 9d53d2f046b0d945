// 4.4.2: array dimensions shall be non-negative
model DimensionNegative
  parameter Integer n = -1;
  Real x[n];
end DimensionNegative;
