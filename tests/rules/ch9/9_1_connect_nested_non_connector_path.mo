// 9.1: connect argument m.c: m non-connector element of the class, c its connector (no m1.m2.c)
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
model Wrap
  Pin p;
  Load l;
equation
  connect(p, l.p);
end Wrap;
model ConnectNestedNonConnectorPath
  Wrap w;
  VSource s;
equation
  connect(s.p, w.l.p);
end ConnectNestedNonConnectorPath;
