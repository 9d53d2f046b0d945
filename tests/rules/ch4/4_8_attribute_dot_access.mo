// 4.8: attributes cannot be accessed using dot notation
model AttributeDotAccess
  Real x(start = 1) = 2;
  Real y = x.start;
end AttributeDotAccess;
