// 9.1.3: expandable connectors can only be connected to other expandable connectors
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
expandable connector Bus
end Bus;
model ExpandableToNonexpandable
  Bus b;
  Load l;
equation
  connect(b, l.p);
end ExpandableToNonexpandable;
