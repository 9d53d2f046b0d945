// 10.1: array dimension upper bounds must be Integer (or an enumeration / Boolean type)
model RealDimensionSize
  Real x[2.0] = {1, 2};
end RealDimensionSize;
