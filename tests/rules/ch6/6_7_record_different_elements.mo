// 6.7: type-compatible expressions: a record operand needs a record operand with the same named, type-compatible elements
record R1
  Real x;
end R1;

record R2
  Real y;
end R2;

model RecordDifferentElements
  parameter Boolean b = true;
  R1 r1(x = 1);
  R2 r2(y = 2);
  R1 r3 = if b then r1 else r2;
end RecordDifferentElements;
