model SteadyStart "Parallel capacitors driven by a sine through a resistor, starting in steady state (der = 0)"
  import Rtc.Electrical.*;
  SineVoltage source(V = 10, f = 5, phase = 0.7);
  Resistor resistor(R = 100);
  Capacitor c1(C = 1e-3);
  Capacitor c2(C = 2e-3);
  Ground ground;
initial equation
  der(c2.v) = 0;
equation
  connect(source.p, resistor.p);
  connect(resistor.n, c1.p);
  connect(resistor.n, c2.p);
  connect(c1.n, ground.p);
  connect(c2.n, ground.p);
  connect(source.n, ground.p);
end SteadyStart;
