// 9.3: stream variables may only be connected to stream variables
connector CS
  Real p;
  flow Real m;
  stream Real h;
end CS;
connector CN
  Real p;
  flow Real m;
  Real h;
end CN;
model SS
  CS c;
equation
  c.p = 1;
  c.h = 2;
end SS;
model SN
  CN c;
equation
  c.m = c.p;
  c.h = 3;
end SN;
model ConnectStreamToNonstream
  SS s;
  SN n;
equation
  connect(s.c, n.c);
end ConnectStreamToNonstream;
