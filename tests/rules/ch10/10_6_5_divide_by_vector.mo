// 10.6.5: a / s requires a scalar divisor s
model DivideByVector
  Real y[2] = {1, 2} / {1, 2};
end DivideByVector;
