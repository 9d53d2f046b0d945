// 10.6.8: matrix power a ^ s requires s >= 0
model MatrixPowerNegative
  Real M[2, 2] = [1, 2; 3, 4] ^ (-1);
end MatrixPowerNegative;
