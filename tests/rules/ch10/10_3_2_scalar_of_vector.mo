// 10.3.2: scalar(A) requires all dimension sizes of A to be 1
model ScalarOfVector
  Real s = scalar({1, 2});
end ScalarOfVector;
