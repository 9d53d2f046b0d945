// 3.5: == and <> shall not have Real operands outside functions
model RealEqualityOutsideFunction
  Real x = time;
  Boolean b = x == 1;
end RealEqualityOutsideFunction;
