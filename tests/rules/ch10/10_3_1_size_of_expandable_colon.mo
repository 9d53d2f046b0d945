// 10.3.1: size of an expandable-connector component must not be taken over a colon (:) dimension
expandable connector EC
  Real b[:];
end EC;
connector RO = output Real;
model Src
  RO y[2] = {time, time};
end Src;
model SizeOfExpandableColon
  EC e;
  Src s;
  Integer k = size(e.b, 1);
equation
  connect(s.y, e.b);
end SizeOfExpandableColon;
