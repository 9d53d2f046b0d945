// 7.3.3: an element declared final cannot be redeclared
model Base
  Real x = 1;
end Base;

model Derived
  extends Base;
  Real y = 2;
end Derived;

model A
  final replaceable Base c;
end A;

model RedeclareFinal
  extends A(redeclare Derived c);
end RedeclareFinal;
