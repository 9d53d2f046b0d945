// 6.4: compatibility: the number of array dimensions of an element must match
model MB
  Real x[2] = {1, 2};
end MB;

model MA
  Real x = 1;
end MA;

model ArrayDimensionsMismatch
  replaceable model M = MA constrainedby MB;
  M m;
end ArrayDimensionsMismatch;
