// 7.1.3: an operator record may only extend an operator record or a class
record R
  Real re;
end R;

operator record C
  extends R;
end C;

model OperatorRecordExtendsRecord
  C c(re = 1);
end OperatorRecordExtendsRecord;
