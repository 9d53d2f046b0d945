// 7.1.3: a block may only extend a record, block or class
model M
  Real x;
end M;

block B
  extends M;
equation
  x = 1;
end B;

model BlockExtendsModel
  B b;
end BlockExtendsModel;
