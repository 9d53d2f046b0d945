model UnknownModifier
  Rtc.Electrical.Resistor r(Rx = 1);
  Rtc.Electrical.Ground g;
equation
  connect(r.p, g.p);
  connect(r.n, g.p);
end UnknownModifier;
