// 10.3.5: transpose(A) is an error if A has fewer than 2 dimensions
model TransposeOfVector
  Real t[2, 1] = transpose({1, 2});
end TransposeOfVector;
