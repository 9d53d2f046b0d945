// Connection sets: potentials equal, flows sum to zero with inside (+) and outside (-)
// signs; unconnected flows are zero, including the top-level connector's.
model ConnectorsFlow
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model TwoPin
    Pin p;
    Pin n;
    Real v;
    Real i;
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end TwoPin;
  model Res
    extends TwoPin;
    parameter Real R = 1;
  equation
    v = R*i;
  end Res;
  model Pair "two resistors in series behind outside pins"
    Pin a;
    Pin b;
    Res r1(R = 2);
    Res r2;
  equation
    connect(a, r1.p);
    connect(r1.n, r2.p);
    connect(r2.n, b);
  end Pair;
  model Src "ideal voltage source"
    Pin p;
    Pin n;
  equation
    p.v - n.v = 10;
    0 = p.i + n.i;
  end Src;
  model Gnd
    Pin p;
  equation
    p.v = 0;
  end Gnd;
  Pair pair;
  Res load(R = 5);
  Src src;
  Gnd gnd;
  Pin top "a top-level connector: its flow is zero";
equation
  connect(src.p, pair.a);
  connect(pair.b, load.p);
  connect(load.n, src.n);
  connect(src.n, gnd.p);
  connect(gnd.p, top);
end ConnectorsFlow;
