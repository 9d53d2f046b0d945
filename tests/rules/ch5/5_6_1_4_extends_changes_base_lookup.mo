// 5.6.1.4: extends-clause base names must resolve the same before and after inheriting (an extends may not change them)
model B
  Real x = 1;
end B;

model A
  model B
    Real y = 2;
  end B;
end A;

model ExtendsChangesBaseLookup
  extends A;
  extends B;
end ExtendsChangesBaseLookup;
