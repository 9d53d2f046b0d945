// 4.6: a connector may not contain equation (or algorithm, initial) sections
connector C
  Real v;
  flow Real i;
equation
  v = 1;
end C;
model ConnectorWithEquation
  C c;
end ConnectorWithEquation;
