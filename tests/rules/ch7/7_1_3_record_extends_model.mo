// 7.1.3: a record may only extend a record or a class
model M
  Real x;
end M;

record R
  extends M;
end R;

model RecordExtendsModel
  R r(x = 1);
end RecordExtendsModel;
