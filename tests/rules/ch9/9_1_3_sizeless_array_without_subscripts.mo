// 9.1.3: a sizeless array component of an expandable connector shall not be used without subscripts
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
model SizelessArrayWithoutSubscripts
  Bus bus;
  Src s;
  Real a[1];
equation
  connect(s.y, bus.speed[1]);
  a = bus.speed;
end SizelessArrayWithoutSubscripts;
