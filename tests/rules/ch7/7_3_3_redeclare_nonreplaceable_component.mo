// 7.3.3: only replaceable components can be redeclared with a new type
model Base
  Real x = 1;
end Base;

model Derived
  extends Base;
  Real y = 2;
end Derived;

model A
  Base c;
end A;

model RedeclareNonreplaceableComponent
  extends A(redeclare Derived c);
end RedeclareNonreplaceableComponent;
