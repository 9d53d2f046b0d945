// 10.3.2: matrix(A) requires size(A, i) = 1 for i > 2
model MatrixOf3d
  Real m[2, 2] = matrix(fill(1, 2, 2, 2));
end MatrixOf3d;
