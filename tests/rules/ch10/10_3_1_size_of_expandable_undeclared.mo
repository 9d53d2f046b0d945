// 10.3.1: size of an expandable-connector component: must be a declared component without colon dimensions
expandable connector EC
end EC;
connector RO = output Real;
model Src
  RO y[2] = {time, time};
end Src;
model SizeOfExpandableUndeclared
  EC e;
  Src s;
  Integer k = size(e.b, 1);
equation
  connect(s.y, e.b);
end SizeOfExpandableUndeclared;
