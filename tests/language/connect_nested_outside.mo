// Specification 9.1.2: a connector inside the model's own connector (`port.a` where `port` is a
// connector element of the model) is an outside connector: its flow enters the connection set
// with a minus sign. The source inside the machine draws q = 2 out of its heat port
// (hp.Q = -2), so the machine's port passes Q = -2 outwards and the ambient, connected from
// outside, receives +2 (and 5 from the third source); a wrong sign gives -2 and 2. The internal port of the machine is
// an inside connector at the top, never connected there, so its flows are zero (9.2), and
// the ambient inside the machine takes all of the second source's heat (the MSL's machines
// connect their thermal ambient this way).
// run: method=be step=0.5 stop=1
// expect: amb.port.a.Q 2
// expect: m.port.a.Q -2
// expect: m.amb.port.b.Q 3
// expect: m.internal.b.Q 0
// expect: amb.port.b.Q 5
model ConnectNestedOutside
  connector HP
    Real T;
    flow Real Q;
  end HP;
  connector Port
    HP a;
    HP b;
  end Port;
  model Src
    HP hp;
    parameter Real q = 1;
  equation
    hp.Q = -q;
  end Src;
  model Amb
    Port port;
  equation
    port.a.T = 300;
    port.b.T = 310;
  end Amb;
  model Machine
    Src s1(q = 2);
    Src s2(q = 3);
    Src s3(q = 5);
    Port port;
    Amb amb;
    Port internal;
  equation
    connect(s1.hp, port.a);
    connect(s3.hp, port.b);
    connect(s2.hp, internal.b);
    connect(amb.port.b, internal.b);
    connect(amb.port.a, internal.a);
  end Machine;
  Machine m;
  Amb amb;
equation
  connect(m.port, amb.port);
end ConnectNestedOutside;
