// 4.6: elements of a record shall not have prefixes flow or stream
record R
  flow Real x;
end R;
model RecordElementFlow
  R r(x = 1);
end RecordElementFlow;
