// 7.1.3: a connector may only extend a type, record, operator record, connector or class
model M
  Real x;
end M;

connector C
  extends M;
end C;

model ConnectorExtendsModel
  C c;
equation
  c.x = 1;
end ConnectorExtendsModel;
