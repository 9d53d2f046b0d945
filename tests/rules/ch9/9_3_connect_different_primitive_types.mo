// 9.3: matched primitive components must have the same primitive type
connector CA
  Real v;
  flow Real i;
end CA;
connector CB
  Integer v;
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
  p.v = 1;
end SB;
model ConnectDifferentPrimitiveTypes
  SB s;
  LA l;
equation
  connect(s.p, l.p);
end ConnectDifferentPrimitiveTypes;
