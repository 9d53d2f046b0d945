// 4.6: elements of a record shall not have prefixes input or output
record R
  input Real x;
end R;
model RecordElementInput
  R r(x = 1);
end RecordElementInput;
