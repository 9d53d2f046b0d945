// 9.3: a protected outside connector must be in a set with an inside or declared public outside connector
connector RI = input Real;
connector RO = output Real;
block Src
  RO y;
equation
  y = time;
end Src;
block Gain
  RI u;
  RO y;
equation
  y = 2*u;
end Gain;
expandable connector Bus
end Bus;
block PB
  Bus bus;
  RO y;
protected
  RI pc;
equation
  connect(pc, bus.sig);
  y = pc;
end PB;
model ProtectedOutsideConnector
  Src s;
  PB b;
equation
  connect(s.y, b.bus.sig);
end ProtectedOutsideConnector;
