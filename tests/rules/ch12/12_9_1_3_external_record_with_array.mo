// 12.9.1.3: a record containing an array cannot be mapped to an external C struct
record R
  Real v[2];
end R;
pure function F
  input R r;
  output Real y;
external "C" y = e(r);
end F;
model ExternalRecordWithArray
  Real x;
equation
  x = F(R({time, time}));
end ExternalRecordWithArray;
