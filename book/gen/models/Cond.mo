model Cond "a conditional component"
  parameter Boolean withLoad = true;
  Rtc.Electrical.ConstantVoltage src(V = 1);
  Rtc.Electrical.Resistor r(R = 10);
  Rtc.Electrical.Resistor load(R = 100) if withLoad;
  Rtc.Electrical.Ground gnd;
equation
  connect(src.p, r.p);
  connect(r.n, load.p);
  connect(load.n, gnd.p);
  connect(src.n, gnd.p);
end Cond;
