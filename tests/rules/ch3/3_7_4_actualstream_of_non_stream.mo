// 3.7.4: actualStream(v) requires a stream variable v
connector FP
  Real p;
  flow Real m;
  stream Real h;
end FP;
model Src
  FP port;
equation
  port.p = 1;
  port.h = 2;
end Src;
model Sink
  FP port;
  Real y;
equation
  port.m = 1;
  port.h = 3;
  y = actualStream(port.p);
end Sink;
model ActualstreamOfNonStream
  Src a;
  Sink b;
equation
  connect(a.port, b.port);
end ActualstreamOfNonStream;
