// 6.4: compatibility: specialized class kinds must match (function/package/connector/model-block/type-record)
record RB
  Real x;
end RB;

record RA
  Real x;
end RA;

connector CA
  Real x;
end CA;

model Top
  replaceable record R = RB;
  R r(x = 1);
end Top;

model SpecializedClassMismatch
  extends Top(redeclare connector R = CA);
end SpecializedClassMismatch;
