// 10.4.1: iterator expressions of an array constructor shall be vector expressions
model ConstructorIteratorMatrix
  Real v[4] = {i for i in {{1, 2}, {3, 4}}};
end ConstructorIteratorMatrix;
