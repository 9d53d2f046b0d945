// 4.6: elements of a record shall not have prefixes inner or outer
record R
  inner Real x;
end R;
model RecordElementInner
  R r(x = 1);
end RecordElementInner;
