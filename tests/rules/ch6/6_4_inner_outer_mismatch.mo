// 6.4: compatibility: inner/outer prefixes should match
model MB
  inner Real g = 1;
end MB;

model MA
  Real g = 1;
end MA;

model InnerOuterMismatch
  replaceable model M = MA constrainedby MB;
  M m;
end InnerOuterMismatch;
