model Streams
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
end Streams;
