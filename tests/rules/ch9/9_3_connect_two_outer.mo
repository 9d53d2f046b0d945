// 9.3: a connect-equation shall not (directly or indirectly) connect two connectors of outer elements
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
model Sub
  outer Load la;
  outer Load lb;
equation
  connect(la.p, lb.p);
end Sub;
model ConnectTwoOuter
  inner Load la;
  inner Load lb;
  Sub sub;
end ConnectTwoOuter;
