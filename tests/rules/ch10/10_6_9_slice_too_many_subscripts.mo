// 10.6.9: slice a.m[...]: number of subscripts on m must not exceed its number of dimensions
model Sub
  parameter Integer n = 1;
  Real x[n] = fill(1.0, n);
end Sub;
model SliceTooManySubscripts
  Sub a[2];
  Real y[2] = a.x[1, 1];
end SliceTooManySubscripts;
