// 4.6: a connector may not contain protected sections
connector C
  Real v;
  flow Real i;
protected
  parameter Real k = 1;
end C;
model ConnectorWithProtected
  C c;
equation
  c.v = 1;
end ConnectorWithProtected;
