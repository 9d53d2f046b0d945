// 6.7: type-compatible expressions: a scalar of simple type needs a scalar of simple type as the other operand
record R
  Real x;
end R;

model ScalarWithRecord
  parameter Boolean b = true;
  R r(x = 1);
  Real y = if b then 1.0 else r;
end ScalarWithRecord;
