// 10.3.2: vector(A) requires at most one dimension size > 1
model VectorOfMatrix
  Real v[4] = vector([1, 2; 3, 4]);
end VectorOfMatrix;
