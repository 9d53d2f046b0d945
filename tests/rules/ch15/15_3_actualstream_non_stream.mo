// 15.3: the argument of actualStream must be a reference to a stream variable
connector FP
  Real p;
  flow Real m;
  stream Real h;
end FP;
model Source
  FP c;
equation
  c.p = 1;
  c.h = 300;
end Source;
model Sink
  FP c;
  Real hin;
equation
  c.m = c.p - 0.5;
  c.h = 200;
  hin = actualStream(c.p);
end Sink;
model ActualstreamNonStream
  Source s;
  Sink k;
equation
  connect(s.c, k.c);
end ActualstreamNonStream;
