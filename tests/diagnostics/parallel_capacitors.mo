model ParallelCapacitors "two capacitors in parallel: a higher-index model rtc does not reduce"
  Rtc.Electrical.Capacitor c1(C = 1, v(start = 1));
  Rtc.Electrical.Capacitor c2(C = 2, v(start = 1));
  Rtc.Electrical.Resistor r(R = 1);
  Rtc.Electrical.Ground g;
equation
  connect(c1.p, c2.p);
  connect(c1.p, r.p);
  connect(c1.n, g.p);
  connect(c2.n, g.p);
  connect(r.n, g.p);
end ParallelCapacitors;
