// 14.4: String(x) for a record without a matching 'String' operator function is erroneous
record R
  Real x;
end R;

model StringNoMatch
  parameter R r(x = 1);
  parameter String s = String(r);
end StringNoMatch;
