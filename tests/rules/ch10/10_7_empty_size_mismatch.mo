// 10.7: size requirements of operations also apply to zero-sized dimensions ([3,0] + [0,0] is an error)
model EmptySizeMismatch
  Real A[3, 0];
  Real C[0, 0];
  Real D[3, 0] = A + C;
end EmptySizeMismatch;
