// 10.6.7: a .^ b requires equal sizes or a scalar operand
model ElementwisePowerSizeMismatch
  Real y[2] = {1, 2} .^ {1, 2, 3};
end ElementwisePowerSizeMismatch;
