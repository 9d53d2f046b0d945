// 4.6: a connector may only contain components of specialized class connector, record and type
model Sub
  parameter Real p = 1;
end Sub;
connector C
  Real v;
  flow Real i;
  Sub s;
end C;
model ConnectorComponentOfModel
  C c;
equation
  c.v = 1;
end ConnectorComponentOfModel;
