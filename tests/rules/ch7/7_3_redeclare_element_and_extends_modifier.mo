// 7.3: a redeclare element cannot be combined with a modifier of the same element in the extends-clause
model A
  replaceable parameter Real p = 1;
end A;

model RedeclareElementAndExtendsModifier
  extends A(p = 2);
  redeclare parameter Real p = 3;
end RedeclareElementAndExtendsModifier;
