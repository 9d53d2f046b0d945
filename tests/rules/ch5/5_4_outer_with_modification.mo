// 5.4: an outer component declaration shall not have a modification or binding
model A
  outer parameter Real T0 = 1;
  Real x = T0;
end A;

model OuterWithModification
  inner parameter Real T0 = 2;
  A a;
end OuterWithModification;
