// 6.4: compatibility: A and B must have the same operator record base class (or neither has one)
operator record OR
  Real x;
end OR;

record R
  Real x;
end R;

record R2
  Real x;
end R2;

model Top
  replaceable record T = R;
  T t(x = 1);
end Top;

model OperatorRecordBase
  extends Top(redeclare record T = OR);
end OperatorRecordBase;
