// 10.5: array indices must be Integer, Boolean or enumeration values (not Real)
model RealIndex
  Real x[3] = {1, 2, 3};
  Real y = x[1.0];
end RealIndex;
