// 10.3.4.1: iterator expressions of a reduction expression shall be vector expressions
model ReductionIteratorMatrix
  Real s = sum(i for i in {{1, 2}, {3, 4}});
end ReductionIteratorMatrix;
