// 9.3: input/output variables may only be connected to input/output variables
connector CA
  input Real u;
  Real v;
  flow Real i;
end CA;
connector CB
  Real u;
  Real v;
  flow Real i;
end CB;
model MA
  CA c;
equation
  c.i = c.v - c.u;
end MA;
model MB
  CB c;
equation
  c.v = 1;
  c.u = 2;
end MB;
model ConnectCausalToAcausal
  MA a;
  MB b;
equation
  connect(a.c, b.c);
end ConnectCausalToAcausal;
