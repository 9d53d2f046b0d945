model ParallelCapacitors "Two capacitors in parallel fed through a resistor (index 2)"
  import Rtc.Electrical.*;
  ConstantVoltage source(V = 10);
  Resistor resistor(R = 100);
  Capacitor c1(C = 1e-3, v(start = 0, fixed = true));
  Capacitor c2(C = 2e-3);
  Ground ground;
equation
  connect(source.p, resistor.p);
  connect(resistor.n, c1.p);
  connect(resistor.n, c2.p);
  connect(c1.n, ground.p);
  connect(c2.n, ground.p);
  connect(source.n, ground.p);
end ParallelCapacitors;
