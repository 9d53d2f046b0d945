// 9.3: matched components of connected connectors must have the same dimensions
connector CA
  Real v[2];
  flow Real i[2];
end CA;
connector CB
  Real v[3];
  flow Real i[3];
end CB;
model LA
  CA p;
equation
  p.i = p.v;
end LA;
model SB
  CB p;
equation
  p.v = fill(1, size(p.v, 1));
end SB;
model ConnectDifferentDims
  SB s;
  LA l;
equation
  connect(s.p, l.p);
end ConnectDifferentDims;
