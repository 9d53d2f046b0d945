// 10.3.5: symmetric(A) requires a square matrix
model SymmetricNonSquare
  Real S[2, 3] = symmetric([1, 2, 3; 4, 5, 6]);
end SymmetricNonSquare;
