// 15.1: a stream connector must have exactly one flow variable
connector FP2
  Real p1;
  Real p2;
  flow Real m1;
  flow Real m2;
  stream Real h;
end FP2;
model U
  FP2 c;
equation
  c.p1 = 1;
  c.p2 = 2;
  c.h = 3;
end U;
model StreamConnectorTwoFlows
  U u;
end StreamConnectorTwoFlows;
