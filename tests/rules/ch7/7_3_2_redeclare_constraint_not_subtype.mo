// 7.3.2: the constraining type of a replaceable redeclaration must be a subtype of the original constraining type
model Base
  Real x = 1;
end Base;

model Other
  Real z = 1;
end Other;

model Both
  Real x = 1;
  Real z = 1;
end Both;

model A
  replaceable Base c constrainedby Base;
end A;

model RedeclareConstraintNotSubtype
  extends A(redeclare replaceable Both c constrainedby Other);
end RedeclareConstraintNotSubtype;
