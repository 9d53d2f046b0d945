// 4.6: a record may not contain protected sections
record R
  Real x;
protected
  parameter Real y = 2;
end R;
model RecordWithProtected
  R r(x = 1);
end RecordWithProtected;
