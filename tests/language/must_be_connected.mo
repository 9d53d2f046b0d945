// Specification 18.5.2: mustBeConnected judges a connector only where it is enabled and only
// from the outside. `l.p` is disabled (useP = false) and left unconnected; `l2.p` is enabled
// and connected from Top; Top's own connector `own` carries the annotation and is connected
// from nowhere (the model's own connectors are its interface). The model checks (the invalid
// cases are tests/rules/ch18/18_5_2_must_be_connected*.mo). Ground holds 0 V, the loads'
// q.i = q.v draw no current, and own.v is 1.
// run: method=be step=0.5 stop=1
// expect: g.p.v 0
// expect: own.v 1
model Top
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Load
    parameter Boolean useP = false;
    Pin p if useP annotation(mustBeConnected = "p must be connected");
    Pin q;
  equation
    q.i = q.v;
    connect(p, q);
  end Load;
  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
  Pin own annotation(mustBeConnected = "the model's own connector");
  Load l;
  Load l2(useP = true);
  Ground g;
equation
  connect(l.q, g.p);
  connect(l2.q, g.p);
  connect(l2.p, g.p);
  own.v = 1;
end Top;
