// Connection graphs with branches (specification 9.4): `Connections.branch(a, b)` is a
// required edge between the overdetermined elements of one component (no equation of its
// own), connections are the optional ones, and `Connections.rooted(a)` is true when `a` is
// closer to the root than the other side of its one branch. The root `s.p.r` (depth 0)
// reaches e1.a (1), e1.b (2), e2.b (3), e2.a (4), l.p (5): rooted(e1.a) is true and e1 takes
// its angle from side a, rooted(e2.a) is false (e2 is connected the other way round) and e2
// takes it from side b: l.p.r.theta = 0.5 + 1 + 1 = 2.5. The currents of the series circuit
// (source 1 V, resistances 1, 1 and 2): 0.25 A, the load's voltage 0.5 V.
// run: method=fe step=0.5 stop=1
// expect: l.p.r.theta 2.5
// expect: e1.fromA 1
// expect: e2.fromA 0
// expect: l.p.v 0.5
// expect: x 2
model ConnectionBranches
  record Reference
    Real theta;
    function equalityConstraint
      input Reference a;
      input Reference b;
      output Real residue[0];
    algorithm
    end equalityConstraint;
  end Reference;
  connector Port
    Reference r;
    Real v;
    flow Real i;
  end Port;
  model Source
    Port p;
  equation
    Connections.root(p.r);
    p.r.theta = 0.5;
    p.v = 1;
  end Source;
  model Element
    Port a;
    Port b;
    Real fromA;
  equation
    Connections.branch(a.r, b.r);
    if Connections.rooted(a.r) then
      b.r.theta = a.r.theta + 1;
      fromA = 1;
    else
      a.r.theta = b.r.theta + 1;
      fromA = 0;
    end if;
    a.i + b.i = 0;
    b.v = a.v - a.i;
  end Element;
  model Load
    Port p;
  equation
    p.v = 2 * p.i;
  end Load;
  Source s;
  Element e1;
  Element e2;
  Load l;
  Real x(start = 0, fixed = true);
equation
  connect(s.p, e1.a);
  connect(e1.b, e2.b);
  connect(e2.a, l.p);
  der(x) = 2 * e1.fromA + e2.fromA;
end ConnectionBranches;
