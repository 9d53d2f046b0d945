// 3.5: relational operators are only defined for scalar operands of simple types
model RelationOnArrays
  Integer a[2] = {1, 2};
  Boolean b = a < a;
end RelationOnArrays;
