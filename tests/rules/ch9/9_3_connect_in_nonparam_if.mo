// 9.3: connect shall not be used inside if-equations with non-parameter conditions
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
model ConnectInNonparamIf
  VSource s;
  Load l;
equation
  if time > 0.5 then
    connect(s.p, l.p);
  end if;
end ConnectInNonparamIf;
