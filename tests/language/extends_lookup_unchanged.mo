// Two extends-clauses whose names inheriting does not change (specification 5.6.1.4): A
// brings a class C, used after inheriting, but none named B, so `extends B` finds the same
// B before and after. m.x = 1 (B), m.y = 2 (A), m.c.z = 5 (A's C): s = 8.
// run: method=be step=0.5 stop=1
// expect: s 8
model ExtendsLookupUnchanged
  model B
    Real x = 1;
  end B;
  model A
    model C
      Real z = 5;
    end C;
    Real y = 2;
  end A;
  model M
    extends A;
    extends B;
    C c;
  end M;
  M m;
  Real s = m.x + m.y + m.c.z;
end ExtendsLookupUnchanged;
