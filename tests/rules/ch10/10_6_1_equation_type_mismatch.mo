// 10.6.1: equality/assignment operands need to be type equivalent
model EquationTypeMismatch
  Real x;
equation
  x = true;
end EquationTypeMismatch;
