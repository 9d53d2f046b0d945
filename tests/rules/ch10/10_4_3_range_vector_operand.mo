// 10.4.3: range operator operands must be scalars
model RangeVectorOperand
  Integer v[2] = {1, 1} : 2;
end RangeVectorOperand;
