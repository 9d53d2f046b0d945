// 9.3.1: non-partial non-expandable connector: number of flow variables equals number of plain potential variables
connector C
  Real v;
  Real w;
  flow Real i;
end C;
model L
  C p;
equation
  p.v = p.i;
  p.w = 1;
end L;
model UnbalancedConnector
  L l;
end UnbalancedConnector;
