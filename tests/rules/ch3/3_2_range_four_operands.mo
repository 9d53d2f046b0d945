// 3.2: the array range operator takes two or three operands (a : b : c : d is invalid)
model RangeFourOperands
  Integer v[2] = 1 : 1 : 2 : 2;
end RangeFourOperands;
