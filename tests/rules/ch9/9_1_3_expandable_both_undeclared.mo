// 9.1.3: connect involving expandable connectors: at least one side must reference a declared component
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
model ExpandableBothUndeclared
  Bus b1, b2;
  Src s;
equation
  connect(s.y, b1.x);
  connect(b1.z, b2.z);
end ExpandableBothUndeclared;
