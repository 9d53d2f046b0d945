// 7.1.3: a model may only extend a record, block, model or class
connector C
  Real x;
end C;

model ModelExtendsConnector
  extends C;
equation
  x = 1;
end ModelExtendsConnector;
