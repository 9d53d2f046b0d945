// Specification 3.7.4.5: at zero flow the semiLinear equations of two connected ports do not
// determine the port's enthalpy (both read 0 = 0 in it); rule 1 makes it the upstream one,
// `s1 = if x >= 0 then sa else sb`. The massless pump's own enthalpy is still free at zero
// flow (its energy balance reads 0 = 0): the loop's Jacobian has a zero column, the system
// is consistent, and the free unknown keeps its value (its start, 7) instead of the run
// stopping on a singular Jacobian. The flow starts at t = 0.5 (V = 1, from amb1 through the
// pump into the volume and on to amb2); then everything is upstream enthalpy times 1, and
// the volume's enthalpy follows h' = 10 - h from 0: backward Euler with h = 0.25 gives
// 2.5/1.25 = 2 at 0.75 and 4.5/1.25 = 3.6 at 1. The ambient `amb3` is connected to nothing:
// its port's flow and enthalpy flow are zero, and rule 2 makes its semiLinear equation
// `port.h = h` (else nothing would determine `amb3.port.h`).
// run: method=be step=0.25 stop=1
// expect: pump.h 10
// expect: pump.a.h 10
// expect: pump.b.H_flow -10
// expect: vol.h 3.6
// expect: vol.b.h 3.6
// expect: amb2.port.H_flow 3.6
// expect: amb3.port.h 30
model SemiLinearZeroFlow
  connector Port "balanced (9.3.1): two potentials, two flows"
    Real p;
    Real h;
    flow Real m_flow;
    flow Real H_flow;
  end Port;

  model Ambient "fixed enthalpy"
    parameter Real hAmb;
    Port port;
    Real h = hAmb;
  equation
    port.p = 0;
    port.H_flow = semiLinear(port.m_flow, port.h, h);
  end Ambient;

  model Pump "massless, imposes the volume flow V from a to b"
    Port a;
    Port b;
    input Real V;
    Real h(start = 7);
  equation
    a.m_flow + b.m_flow = 0;
    a.m_flow = V;
    b.p = a.p + 1;
    a.H_flow + b.H_flow = 0;
    a.H_flow = semiLinear(a.m_flow, a.h, h);
    b.H_flow = semiLinear(b.m_flow, b.h, h);
  end Pump;

  model Volume "unit mass, well mixed"
    Port a;
    Port b;
    Real h(start = 0, fixed = true);
  equation
    a.m_flow + b.m_flow = 0;
    der(h) = a.H_flow + b.H_flow;
    a.H_flow = semiLinear(a.m_flow, a.h, h);
    b.H_flow = semiLinear(b.m_flow, b.h, h);
  end Volume;

  Ambient amb1(hAmb = 10);
  Ambient amb2(hAmb = 20);
  Ambient amb3(hAmb = 30);
  Pump pump(V = if time >= 0.5 then 1 else 0);
  Volume vol;
equation
  connect(amb1.port, pump.a);
  connect(pump.b, vol.a);
  connect(vol.b, amb2.port);
end SemiLinearZeroFlow;
