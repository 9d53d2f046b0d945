// 10.6.2: a + b / a - b require size(a) = size(b) (no scalar + array)
model AddSizeMismatch
  Real y[2] = {1, 2} + {1, 2, 3};
end AddSizeMismatch;
