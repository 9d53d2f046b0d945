// 7.1.3: a class may only extend a class
model M
  Real x = 1;
end M;

class ClassExtendsModel
  extends M;
end ClassExtendsModel;
