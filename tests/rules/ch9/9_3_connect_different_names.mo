// 9.3: connected connectors must have the same named component elements
connector CA
  Real v;
  flow Real i;
end CA;
connector CB
  Real u;
  flow Real i;
end CB;
model LA
  CA p;
equation
  p.i = p.v;
end LA;
model SB
  CB p;
equation
  p.u = 1;
end SB;
model ConnectDifferentNames
  SB s;
  LA l;
equation
  connect(s.p, l.p);
end ConnectDifferentNames;
