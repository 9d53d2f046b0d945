// 7.2.5: each requires that the modifier is applied in an array declaration or modification
model EachOnScalar
  Real x(each start = 1) = 1;
end EachOnScalar;
