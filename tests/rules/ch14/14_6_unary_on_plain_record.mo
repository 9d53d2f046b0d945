// 14.6: a unary operator with no built-in meaning and no matching operator function (e.g. - on a plain record) is erroneous
record R
  Real x;
end R;

model UnaryOnPlainRecord
  R a(x = 1);
  R b = -a;
end UnaryOnPlainRecord;
