model ConnectIncompatible
  Rtc.Electrical.Resistor r(R = 1);
  Rtc.Mechanics.Translational.Mass m(m = 1);
equation
  connect(r.p, m.flange_a);
end ConnectIncompatible;
