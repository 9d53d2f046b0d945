// 3.7.4.3: cardinality shall not be applied to arrays of connectors (only to their scalar elements)
connector Pin
  Real v;
  flow Real i;
end Pin;
model Part
  Pin p[2];
  Integer n = cardinality(p);
equation
  p.v = p.i;
end Part;
model CardinalityOfConnectorArray
  Part a;
  Part b;
equation
  connect(a.p, b.p);
end CardinalityOfConnectorArray;
