// 10.6.9: slice a.m[...] is valid only if all a[i].m[...] have the same size
model Sub
  parameter Integer n = 1;
  Real x[n] = fill(1.0, n);
end Sub;
model SliceSubscriptedUnequalSizes
  Sub a[2](n = {1, 2});
  Real y = sum(a.x[:]);
end SliceSubscriptedUnequalSizes;
