// 7.3.2: in a redeclaration the new class must be a subtype of the constraining type
model Base
  Real x = 1;
end Base;

model Other
  Real z = 1;
end Other;

model A
  replaceable Base c;
end A;

model RedeclareNotSubtype
  extends A(redeclare Other c);
end RedeclareNotSubtype;
