// 6.4: compatibility: declared variability of an element of A must be <= that of B
model MB
  parameter Real p = 1;
end MB;

model MA
  Real p = 1;
end MA;

model VariabilityHigher
  replaceable model M = MA constrainedby MB;
  M m;
end VariabilityHigher;
