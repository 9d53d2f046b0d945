// 9.1.3: an undeclared connect argument must be inside a declared component (no b.undeclared.x)
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
model ExpandableUndeclaredNested
  Bus b;
  Src s;
equation
  connect(s.y, b.sub.x);
end ExpandableUndeclaredNested;
