// 9.3: all variables of a connection set with non-empty quantity must have the same quantity
connector CA
  Real v(quantity = "Voltage");
  flow Real i;
end CA;
connector CB
  Real v(quantity = "Pressure");
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
model QuantityMismatch
  SB s;
  LA l;
equation
  connect(s.p, l.p);
end QuantityMismatch;
