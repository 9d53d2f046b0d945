// 4.6: a record may not contain equation (or algorithm, initial) sections
record R
  Real x;
equation
  x = 1;
end R;
model RecordWithEquation
  R r;
end RecordWithEquation;
