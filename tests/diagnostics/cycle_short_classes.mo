// Two short class definitions that name each other.
model CycleShortClasses
  type T1 = T2;
  type T2 = T1;
  T1 x;
equation
  x = 1;
end CycleShortClasses;
