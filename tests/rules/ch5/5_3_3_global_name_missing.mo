// 5.3.3: a global name .A requires a class A in the global scope
model GlobalNameMissing
  model Inner
    Real x = 1;
  end Inner;
  .Inner i;
end GlobalNameMissing;
