// 7.3: a redeclare element requires that the redeclared element is inherited
model A
  Real y = 1;
end A;

model RedeclareElementNotInherited
  extends A;
  redeclare Real x = 2;
end RedeclareElementNotInherited;
