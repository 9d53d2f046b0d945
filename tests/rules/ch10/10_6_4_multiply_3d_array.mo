// 10.6.4: a * b of arrays is only defined for vector/matrix combinations (not for ndims > 2 with non-scalar)
model Multiply3dArray
  Real A[2, 2, 2] = fill(1.0, 2, 2, 2);
  Real y[2, 2, 2] = A * {1, 1};
end Multiply3dArray;
