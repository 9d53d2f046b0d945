// 9.3: connect may only join parameter to parameter and constant to constant primitive components
connector CA
  parameter Real k = 1;
  Real v;
  flow Real i;
end CA;
connector CB
  constant Real k = 1;
  Real v;
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
model ConnectParameterToConstant
  SB s;
  LA l;
equation
  connect(s.p, l.p);
end ConnectParameterToConstant;
