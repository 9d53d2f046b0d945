// 9.1: connect arguments must be connectors (c1.c2... or m.c), not other components
connector Pin
  Real v;
  flow Real i;
end Pin;
model VSource
  Pin p;
equation
  p.v = 1;
end VSource;
model Load
  Pin p;
equation
  p.i = p.v;
end Load;
model ConnectNonConnector
  Load l1, l2;
equation
  connect(l1, l2);
end ConnectNonConnector;
