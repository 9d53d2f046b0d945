// 10.5.1: the index type must correspond to the dimension type (no enum/Boolean index on an Integer dimension)
type E = enumeration(a, b);
model IntegerDimEnumSubscript
  Real x[2] = {1, 2};
  Real y = x[E.a];
end IntegerDimEnumSubscript;
