// 7.3.3: a public element may not be redeclared as protected (nor protected as public)
model Base
  Real x = 1;
end Base;

model Derived
  extends Base;
  Real y = 2;
end Derived;

model A
  replaceable Base c;
end A;

model RedeclarePublicAsProtected
  extends A;
protected
  redeclare Derived c;
end RedeclarePublicAsProtected;
