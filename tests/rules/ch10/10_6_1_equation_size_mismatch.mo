// 10.6.1: equality a = b / assignment a := b require same number of dimensions and sizes
model EquationSizeMismatch
  Real x[3];
equation
  x = {1, 2};
end EquationSizeMismatch;
