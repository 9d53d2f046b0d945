// 7.4: a deselected component cannot be modified in the extends-clause (nonnormative consequence)
model Sub
  Real z = 1;
end Sub;

model B
  Sub s;
  Real y = 2;
end B;

model DeselectedComponentModified
  extends B(break s, s(z = 2));
end DeselectedComponentModified;
