// 7.3.2: the type in a redeclaration must have the same number of dimensions as the type of the redeclared element
type V2 = Real[2];

model A
  replaceable V2 x = {1, 2};
end A;

model RedeclareTypeDimsDiffer
  extends A(redeclare Real x[2]);
end RedeclareTypeDimsDiffer;
