// 15.1: the flow variable of a stream connector shall be a scalar
connector FPA
  Real p[2];
  flow Real m[2];
  stream Real h;
end FPA;
model U
  FPA c;
equation
  c.p = {1, 2};
  c.h = 3;
end U;
model StreamFlowNotScalar
  U u;
end StreamFlowNotScalar;
