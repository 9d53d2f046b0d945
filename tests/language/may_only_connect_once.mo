// Specification 18.5.2: mayOnlyConnectOnce counts the connection set in which the connector
// is connected from the outside, not the sets inside its own component. `l.p` is connected
// once from Top (the set {s.p, l.p}); inside Load it joins two resistors (the set {p, r1.a,
// r2.a} of Load's level), which is allowed. The invalid case is
// tests/rules/ch18/18_5_2_may_only_connect_once.mo. With 1 V on p: r1.a.i = 1, r2.a.i = 0.5,
// and the source gives 1.5 A (s.p.i = -1.5).
// run: method=be step=0.5 stop=1
// expect: l.r1.a.i 1
// expect: l.r2.a.i 0.5
// expect: s.p.i -1.5
model Top
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Res
    parameter Real R = 1;
    Pin a;
  equation
    a.i = a.v / R;
  end Res;
  model Load
    Pin p annotation(mayOnlyConnectOnce = "connect p only once");
    Res r1;
    Res r2(R = 2);
  equation
    connect(p, r1.a);
    connect(p, r2.a);
  end Load;
  model Src
    Pin p;
  equation
    p.v = 1;
  end Src;
  Src s;
  Load l;
equation
  connect(s.p, l.p);
end Top;
