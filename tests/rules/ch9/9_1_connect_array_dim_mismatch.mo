// 9.1: connecting arrays of connectors requires matching array dimensions
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
model ConnectArrayDimMismatch
  VSource s[3];
  Load l[2];
equation
  connect(s.p, l.p);
end ConnectArrayDimMismatch;
