// 6.4: compatibility: the flow/stream prefix must match
connector CB
  Real v;
  flow Real i;
end CB;

connector CA
  flow Real v;
  Real i;
end CA;

model Source
  replaceable connector C = CA constrainedby CB;
  C p;
equation
  p.v + p.i = 1;
end Source;

model FlowPrefixMismatch
  Source a;
end FlowPrefixMismatch;
