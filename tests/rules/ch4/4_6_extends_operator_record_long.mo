// 4.6: not legal to extend from an operator record except in a short class definition (operator record or connector)
operator record Cx
  Real re;
end Cx;
operator record Cx2
  extends Cx;
  Real k;
end Cx2;
model ExtendsOperatorRecordLong
  Cx2 c(re = 1, k = 2);
end ExtendsOperatorRecordLong;
