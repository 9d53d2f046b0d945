// 9.3: a causal connection set may contain at most one inside output or one public outside input
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
model TwoSourcesInSet
  Src s;
  Gain g;
equation
  connect(s.y, g.y);
end TwoSourcesInSet;
