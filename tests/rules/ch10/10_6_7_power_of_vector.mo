// 10.6.7: a ^ b requires scalar Real or Integer operands (except square-matrix power)
model PowerOfVector
  Real y[2] = {1, 2} ^ 2;
end PowerOfVector;
