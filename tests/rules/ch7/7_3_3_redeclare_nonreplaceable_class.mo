// 7.3.3: only replaceable classes can be redeclared
model A
  model M
    Real x = 1;
  end M;
  M m;
end A;

model N
  Real x = 2;
end N;

model RedeclareNonreplaceableClass
  extends A(redeclare model M = N);
end RedeclareNonreplaceableClass;
