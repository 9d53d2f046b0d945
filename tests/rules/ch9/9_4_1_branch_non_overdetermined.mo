// 9.4.1: arguments of Connections.* operators must be overdetermined type/record instances in connectors
connector Pin
  Real v;
  flow Real i;
end Pin;
model Ground
  Pin p;
equation
  p.v = 0;
end Ground;
model TwoPin
  Pin p, n;
equation
  Connections.root(p.v);
  p.v = n.v;
  p.i + n.i = 0;
end TwoPin;
model BranchNonOverdetermined
  TwoPin t;
  Ground g;
equation
  connect(g.p, t.p);
end BranchNonOverdetermined;
