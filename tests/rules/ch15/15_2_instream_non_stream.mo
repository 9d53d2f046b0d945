// 15.2: inStream(v) is only allowed on stream variables
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
  hin = inStream(c.p);
end Sink;
model InstreamNonStream
  Source s;
  Sink k;
equation
  connect(s.c, k.c);
end InstreamNonStream;
