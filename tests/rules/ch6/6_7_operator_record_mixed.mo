// 6.7: type-compatible expressions: in if/array expressions both or neither operand have the same operator record base class
operator record C
  Real x;
end C;

record R
  Real x;
end R;

model OperatorRecordMixed
  parameter Boolean b = true;
  C c(x = 1);
  R r(x = 2);
  C r2(x = 3);
  R r3 = if b then r else r2;
end OperatorRecordMixed;
