// 5.4: an outer element may not be modified from an enclosing instance (A a(T0 = 4) with T0 outer)
model A
  outer parameter Real T0;
  Real x = T0;
end A;

model OuterModifiedFromInstance
  inner parameter Real T0 = 1;
  A a(T0 = 4);
end OuterModifiedFromInstance;
