// 11.1: no other kind of equation (e.g. connect) may appear in an algorithm section
connector RealOut = output Real;
connector RealIn = input Real;
block Src
  RealOut y;
equation
  y = time;
end Src;
block Snk
  RealIn u;
  Real z;
equation
  z = u;
end Snk;
model ConnectInAlgorithm
  Src s;
  Snk k;
algorithm
  connect(s.y, k.u);
end ConnectInAlgorithm;
