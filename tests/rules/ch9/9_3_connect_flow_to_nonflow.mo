// 9.3: flow variables may only be connected to flow variables
connector CA
  Real v;
  flow Real i;
end CA;
connector CB
  flow Real v;
  Real i;
end CB;
model LA
  CA p;
equation
  p.i = p.v;
end LA;
model SB
  CB p;
equation
  p.i = 1;
end SB;
model ConnectFlowToNonflow
  SB s;
  LA l;
equation
  connect(s.p, l.p);
end ConnectFlowToNonflow;
