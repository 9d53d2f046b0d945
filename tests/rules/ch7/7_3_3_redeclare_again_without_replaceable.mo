// 7.3.3: an element redeclared without replaceable cannot be redeclared with a new type again
model Base
  Real x = 1;
end Base;

model D1
  extends Base;
  Real y = 2;
end D1;

model D2
  extends Base;
  Real z = 3;
end D2;

model A
  replaceable Base c;
end A;

model B
  extends A(redeclare D1 c);
end B;

model RedeclareAgainWithoutReplaceable
  extends B(redeclare D2 c);
end RedeclareAgainWithoutReplaceable;
