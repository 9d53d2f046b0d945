// 18.5.2: mayOnlyConnectOnce: error if a stream connector is in a connection set with more than two elements whose flow may be negative
connector Port
  Real p;
  flow Real m_flow;
  stream Real h_outflow;
end Port;
model Mixer
  Port port annotation(mayOnlyConnectOnce = "connect port only once");
equation
  port.p = 1;
  port.h_outflow = 1;
end Mixer;
model Boundary
  Port port;
equation
  port.m_flow = -1;
  port.h_outflow = 2;
end Boundary;
model MayOnlyConnectOnceStream
  Mixer m;
  Boundary b1;
  Boundary b2;
equation
  connect(m.port, b1.port);
  connect(m.port, b2.port);
end MayOnlyConnectOnceStream;
