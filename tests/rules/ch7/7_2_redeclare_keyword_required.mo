// 7.2: an element-redeclaration in a modifier requires the keyword redeclare (or replaceable)
model A
  replaceable model M
    Real x = 1;
  end M;
  M m;
end A;

model N
  Real x = 2;
end N;

model RedeclareKeywordRequired
  A a(model M = N);
end RedeclareKeywordRequired;
