// 10.6.8: matrix power a ^ s requires an Integer exponent s
model MatrixPowerRealExponent
  Real M[2, 2] = [1, 2; 3, 4] ^ 2.0;
end MatrixPowerRealExponent;
