// 10.6.6: a ./ b requires equal sizes or a scalar operand
model ElementwiseDivideSizeMismatch
  Real y[2] = {1, 2} ./ {1, 2, 3};
end ElementwiseDivideSizeMismatch;
