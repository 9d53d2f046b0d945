// 9.1: array subscripts in connect arguments shall be parameter expressions or ':'
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
model ConnectSubscriptNotParameter
  Integer k = 1;
  VSource s;
  Load l[2];
equation
  connect(s.p, l[k].p);
end ConnectSubscriptNotParameter;
