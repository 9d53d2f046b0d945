// Specification 3.7.4.5 and 9.4: cardinality(c) counts the connect equations naming
// connector c (for-loops included: connect(a.p, b.p) in a loop of two names a.p and b.p twice
// each, c.p never), and the
// overdetermined connectors' operators without branches: each connected part of the graph
// selects its root (the definite Connections.root, else the potential root with the lowest
// priority number), for which Connections.isRoot is true: the source's reference angle is the
// root of its part (src.root = 1), the load's is not (load.root = 0); the lone node with a
// potential root is the root of its own part (lone.root = 1). The root's component gives the
// reference its equation, the others take it through the connection.
// run: method=fe step=0.25 stop=1
// expect: a.n 2
// expect: b.n 2
// expect: c.n 0
// expect: src.root 1
// expect: load.root 0
// expect: lone.root 1
// expect: load.p.ref.theta 2
model ConnectionGraph
  connector Pin
    Real v;
    flow Real i;
  end Pin;
  model Part
    Pin p;
    Integer n = cardinality(p);
  equation
    p.v = 2 * p.i + 1;
  end Part;
  record Reference "an overdetermined type"
    Real theta;
    function equalityConstraint
      input Reference r1;
      input Reference r2;
      output Real residue[0];
    end equalityConstraint;
  end Reference;
  connector QPin
    Real v;
    flow Real i;
    Reference ref;
  end QPin;
  model Source
    QPin p;
    Real root = if Connections.isRoot(p.ref) then 1 else 0;
  equation
    Connections.potentialRoot(p.ref, 1);
    if Connections.isRoot(p.ref) then
      p.ref.theta = 2 * time;
    end if;
    p.v = 1;
  end Source;
  model Load
    QPin p;
    Real root = if Connections.isRoot(p.ref) then 1 else 0;
  equation
    Connections.potentialRoot(p.ref, 2);
    if Connections.isRoot(p.ref) then
      p.ref.theta = 0;
    end if;
    p.i = p.v;
  end Load;
  Part a;
  Part b;
  Part c;
  Source src;
  Load load;
  Load lone;
equation
  for k in 1:2 loop
    connect(a.p, b.p);
  end for;
  connect(src.p, load.p);
end ConnectionGraph;
