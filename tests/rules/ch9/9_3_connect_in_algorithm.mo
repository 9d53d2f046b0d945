// 9.3: connect-equations can only be used in equation sections (not in algorithms)
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
model ConnectInAlgorithm
  VSource s;
  Load l;
algorithm
  connect(s.p, l.p);
end ConnectInAlgorithm;
