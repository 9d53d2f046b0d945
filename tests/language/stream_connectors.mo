// Specification 15.1-15.3: stream connectors. Three inside connectors at one connection point
// (sources a and b push 2 and 1 into it, the sink takes 3): inStream is the regularised mixing
// of 15.2 with max(x, 1e-7) weights: at the sink (200·... ) (2·100 + 1·400)/3 = 200; at a
// (1·400 + 1e-7·50)/(1 + 1e-7), at b (2·100 + 1e-7·50)/(2 + 1e-7). actualStream of an outflow
// is the connector's own stream (a.act = 100), of an inflow its inStream (s.act = 200).
// Two inside connectors: inStream is the other's stream (c.in = d's 7, d.in = c's 5). One
// inside and one outside connector (a source wrapped in a model whose port is connected to a
// sink): inStream of the inner source is the inStream of the outer port (the sink's 50), and
// the outer port's stream is the inner source's (w.port.h = 30, so sink2.in = 30). An
// unconnected stream connector reads its own stream (u.in = 9). Two inside connectors and an
// outside one (two sources behind one port, 1 and 3 out at enthalpies 10 and 20, the port
// connected to a sink at 70): the port's stream is the mixing of the sources,
// (1·10 + 3·20)/4 = 17.5; a source's inStream mixes the other source with what comes in
// through the port, (3·20 + 1e-7·70)/(3 + 1e-7) for the first.
// run: method=fe step=0.25 stop=1
// expect: s.hin 200
// expect: a.hin 399.99996500000344
// expect: b.hin 99.99999750000012
// expect: a.act 100
// expect: s.act 200
// expect: c.hin 7
// expect: d.hin 5
// expect: w.src.hin 50
// expect: sink2.hin 30
// expect: u.hin 9
// expect: sink3.hin 17.5
// expect: w2.s1.hin 20.000001666666613
// expect: w2.s2.hin 10.000005999999399
model StreamConnectors
  connector FluidPort
    Real p;
    flow Real m_flow;
    stream Real h_outflow;
  end FluidPort;
  model Source "pushes m into the connection point with enthalpy h"
    parameter Real m = 1;
    parameter Real h = 0;
    FluidPort port;
    Real hin = inStream(port.h_outflow);
    Real act = actualStream(port.h_outflow);
  equation
    port.m_flow = -m;
    port.h_outflow = h;
  end Source;
  model Sink "a pressure boundary"
    parameter Real h = 50;
    FluidPort port;
    Real hin = inStream(port.h_outflow);
    Real act = actualStream(port.h_outflow);
  equation
    port.p = 1;
    port.h_outflow = h;
  end Sink;
  model Wrapped "a source behind a port of its own"
    FluidPort port;
    Source src(m = 1, h = 30);
  equation
    connect(src.port, port);
  end Wrapped;
  model Wrapped2 "two sources behind a port"
    FluidPort port;
    Source s1(m = 1, h = 10);
    Source s2(m = 3, h = 20);
  equation
    connect(s1.port, port);
    connect(s2.port, port);
  end Wrapped2;
  Wrapped2 w2;
  Sink sink3(h = 70);
  Source a(m = 2, h = 100);
  Source b(m = 1, h = 400);
  Sink s;
  Source c(m = 1, h = 5);
  Sink d(h = 7);
  Wrapped w;
  Sink sink2;
  Sink u(h = 9);
equation
  connect(a.port, s.port);
  connect(b.port, s.port);
  connect(c.port, d.port);
  connect(w.port, sink2.port);
  connect(w2.port, sink3.port);
end StreamConnectors;
