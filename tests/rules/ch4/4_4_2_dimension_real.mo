// 4.4.2: array dimensions shall be of type Integer (not Real)
model DimensionReal
  parameter Real n = 2;
  Real x[n] = {1, 2};
end DimensionReal;
