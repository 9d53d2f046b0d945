// 4.4.2: array dimensions shall be parameter expressions
model DimensionNotParameter
  Integer n = 2;
  Real x[n] = {1, 2};
end DimensionNotParameter;
