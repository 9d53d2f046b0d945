// 4.6: a type may only be a predefined type, enumeration, array of type, or extend from a type (not a record)
record R
  Real x;
end R;
type T = R;
model TypeFromRecord
  T t(x = 1);
end TypeFromRecord;
