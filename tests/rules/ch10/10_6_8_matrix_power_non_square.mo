// 10.6.8: matrix power a ^ s requires a square matrix a
model MatrixPowerNonSquare
  Real M[2, 3] = [1, 2, 3; 4, 5, 6] ^ 2;
end MatrixPowerNonSquare;
