// Specification 18.5.2: of a stream connector's connection set, mayOnlyConnectOnce counts the
// members whose flow may be negative (by their min): the mixer's port is connected to a
// source and to a sensor whose flow has min = 0, two counted members, which is allowed. (The
// invalid case, a second source, is tests/rules/ch18/18_5_2_may_only_connect_once_stream.mo.)
// The source pushes 1 kg/s in (its m_flow = -1), so the mixer takes m.port.m_flow = 1 (and
// sees about the source's enthalpy, inStream(m.port.h_outflow) ≈ 2: rtc regularises the
// mixing near zero flow, so that value is not exact and not compared here).
// run: method=be step=0.5 stop=1
// expect: m.port.m_flow 1
model Top
  connector Port
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end Port;
  model Mixer
    Port port annotation(mayOnlyConnectOnce = "connect port only once");
    Real h = inStream(port.h_outflow);
  equation
    port.p = 1;
    port.h_outflow = 1;
  end Mixer;
  model Source
    Port port;
  equation
    port.m_flow = -1;
    port.h_outflow = 2;
  end Source;
  model Sensor "draws no flow"
    Port port(m_flow(min = 0));
    Real h = inStream(port.h_outflow);
  equation
    port.m_flow = 0;
    port.h_outflow = h;
  end Sensor;
  Mixer m;
  Source b;
  Sensor s;
equation
  connect(m.port, b.port);
  connect(m.port, s.port);
end Top;
