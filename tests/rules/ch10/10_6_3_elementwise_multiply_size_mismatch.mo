// 10.6.3: a .* b requires equal sizes or a scalar operand
model ElementwiseMultiplySizeMismatch
  Real y[2] = {1, 2} .* {1, 2, 3};
end ElementwiseMultiplySizeMismatch;
