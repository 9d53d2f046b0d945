// 14.5: a binary operator with no built-in meaning and no matching operator function (e.g. + on plain records) is erroneous
record R
  Real x;
end R;

model BinaryOnPlainRecord
  R a(x = 1);
  R b(x = 2);
  R c = a + b;
end BinaryOnPlainRecord;
