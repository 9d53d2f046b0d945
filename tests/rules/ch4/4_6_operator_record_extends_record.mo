// 4.6: an operator record can only extend from an operator record
record R
  Real re;
end R;
operator record OperatorRecordFromRecord
  extends R;
end OperatorRecordFromRecord;
model OperatorRecordExtendsRecord
  OperatorRecordFromRecord c(re = 1);
end OperatorRecordExtendsRecord;
