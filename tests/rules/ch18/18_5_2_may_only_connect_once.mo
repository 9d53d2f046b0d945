// 18.5.2: mayOnlyConnectOnce: error if a non-stream connector connected from outside is in a connection set of more than two elements
connector Pin
  Real v;
  flow Real i;
end Pin;
model Load
  Pin p annotation(mayOnlyConnectOnce = "connect p only once");
equation
  p.i = p.v;
end Load;
model Ground
  Pin p;
equation
  p.v = 0;
end Ground;
model Sink
  Pin p;
equation
  p.i = 0;
end Sink;
model MayOnlyConnectOnce
  Load l;
  Ground g;
  Sink s;
equation
  connect(l.p, g.p);
  connect(l.p, s.p);
end MayOnlyConnectOnce;
