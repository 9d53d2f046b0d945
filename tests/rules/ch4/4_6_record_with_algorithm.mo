// 4.6: a record may not contain algorithm sections
record R
  Real x;
algorithm
  x := 1;
end R;
model RecordWithAlgorithm
  R r;
end RecordWithAlgorithm;
