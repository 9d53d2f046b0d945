// 9.1.3: expressions must not refer to potentially present but not present (or undeclared) expandable elements
connector RI = input Real;
connector RO = output Real;
block Src
  RO y;
equation
  y = time;
end Src;
block Gain
  RI u;
  RO y;
equation
  y = 2*u;
end Gain;
expandable connector BusX
  Real x;
end BusX;
model ReferenceNotPresent
  BusX bus;
  Src s;
  Real y;
equation
  connect(s.y, bus.w);
  y = bus.x;
end ReferenceNotPresent;
