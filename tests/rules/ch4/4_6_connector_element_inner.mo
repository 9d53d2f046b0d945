// 4.6: elements of a connector shall not have prefixes inner or outer
connector C
  Real v;
  flow Real i;
  inner parameter Real k = 1;
end C;
model ConnectorElementInner
  C c;
equation
  c.v = 1;
end ConnectorElementInner;
