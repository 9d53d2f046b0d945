model Overfixed "two capacitors in parallel, fixed at different voltages"
  import Rtc.Electrical.*;
  Resistor r(R = 1);
  Capacitor c1(C = 1e-3, v(start = 1, fixed = true));
  Capacitor c2(C = 2e-3, v(start = 2, fixed = true));
  Ground gnd;
equation
  connect(r.p, c1.p);
  connect(c1.p, c2.p);
  connect(r.n, gnd.p);
  connect(c1.n, gnd.p);
  connect(c2.n, gnd.p);
end Overfixed;
