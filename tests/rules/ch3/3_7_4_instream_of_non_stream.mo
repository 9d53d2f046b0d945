// 3.7.4: inStream(v) is only allowed for stream variables v of stream connectors
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
  y = inStream(port.p);
end Sink;
model InstreamOfNonStream
  Src a;
  Sink b;
equation
  connect(a.port, b.port);
end InstreamOfNonStream;
