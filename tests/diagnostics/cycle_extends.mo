// Two classes that extend each other (accepted silently before, as if neither extended).
model CycleExtends
  model A
    extends B;
  end A;
  model B
    extends A;
    Real x = 1;
  end B;
  A a;
end CycleExtends;
