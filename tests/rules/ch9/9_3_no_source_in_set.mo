// 9.3: a causal connection set (non-partial model) must contain a signal source
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
model NoSourceInSet
  Gain g1, g2;
equation
  connect(g1.u, g2.u);
  g1.u = time;
end NoSourceInSet;
