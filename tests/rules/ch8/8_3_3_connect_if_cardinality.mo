// 8.3.3: connect in if/for: conditions/ranges must not depend on cardinality, rooted or Connections.isRoot
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
model ConnectIfCardinality
  VSource s;
  Load l;
equation
  if cardinality(l.p) == 0 then
    connect(s.p, l.p);
  end if;
end ConnectIfCardinality;
