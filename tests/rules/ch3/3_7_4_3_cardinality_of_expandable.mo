// 3.7.4.3: cardinality shall not be applied to expandable connectors or their elements
expandable connector EC
end EC;
connector Pin
  Real v;
  flow Real i;
end Pin;
model Part
  EC e;
  Pin p;
  Integer n = cardinality(e);
equation
  p.v = p.i;
end Part;
model CardinalityOfExpandable
  Part a;
  Part b;
equation
  connect(a.p, b.p);
end CardinalityOfExpandable;
