// 3.2: unary +/- only allowed in the first term of a sum (1 + -x, 2*-2, --2 invalid)
model UnaryMinusNotFirstTerm
  Real x = time;
  Real y = 1 + -x;
end UnaryMinusNotFirstTerm;
