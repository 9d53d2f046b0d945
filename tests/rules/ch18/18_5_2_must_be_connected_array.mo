// 18.5.2: mustBeConnected on an array of connectors applies to each element separately
connector Pin
  Real v;
  flow Real i;
end Pin;
model Load
  Pin p[2] annotation(mustBeConnected = "p must be connected");
equation
  p[1].i = p[1].v;
  p[2].i = p[2].v;
end Load;
model Ground
  Pin p;
equation
  p.v = 0;
end Ground;
model MustBeConnectedArray
  Load l;
  Ground g;
equation
  connect(l.p[1], g.p);
end MustBeConnectedArray;
