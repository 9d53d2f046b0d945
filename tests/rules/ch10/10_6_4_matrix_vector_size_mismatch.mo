// 10.6.4: a * b of matrices/vectors requires matching inner dimension sizes
model MatrixVectorSizeMismatch
  Real y[2] = [1, 2; 3, 4] * {1, 2, 3};
end MatrixVectorSizeMismatch;
