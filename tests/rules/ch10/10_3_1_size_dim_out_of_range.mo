// 10.3.1: size(A, i) requires i to be a dimension of A (i <= ndims(A))
model SizeDimOutOfRange
  Real A[2, 2] = [1, 2; 3, 4];
  Integer k = size(A, 3);
end SizeDimOutOfRange;
