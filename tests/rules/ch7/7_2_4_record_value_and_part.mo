// 7.2.4: a modification may not give both a whole-record value and a value for one of its fields (r = R(), r(y = 2))
record R
  parameter Real x = 1;
  parameter Real y = 1;
end R;

model M
  parameter R r;
end M;

model RecordValueAndPart
  M m(r = R(), r(y = 2));
end RecordValueAndPart;
