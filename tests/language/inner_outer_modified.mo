// Specification 5.5: an `inner outer` component "conceptually introduces two declarations":
// references in the class that declares it reach the outer one (the enclosing inner), the
// `outer` components nested in it reach its inner half, and its modification applies to the
// inner half only (the MSL's PartialCompositeStep: its stateGraphRoot is modified with the
// composite step's suspend and resume). Here comp.root is the inner half, modified to
// 5 + outerPort.s; outerPort is connected to the outer root (1); the leaf's outer root is
// comp.root: leaf.y = 6. nest.node's own probe reaches nest.node while it is being made (7).
model InnerOuterModified
  connector PortOut
    output Real s;
  end PortOut;
  connector PortIn
    input Real s;
  end PortIn;
  model State
    PortOut port;
    Real s = 0;
  equation
    port.s = s;
  end State;
  // Ports read through a component, as the MSL's steps read theirs (`outerStatePort`): a
  // connection set has one source of its signal (9.3), here the root's output.
  model Reader
    PortIn p;
    Real s = p.s;
  end Reader;
  model Leaf
    outer State root;
    Reader r;
    Real y = r.s;
  equation
    connect(r.p, root.port);
  end Leaf;
  model Composite
    inner outer State root(s = 5 + outerPort.s);
    Reader outerPort;
    Leaf leaf;
  equation
    connect(outerPort.p, root.port);
  end Composite;
  // The inner half's own elements may reach it as their outer while it is being made.
  model Node
    Probe probe;
    Real s = 2;
  end Node;
  model Probe
    outer Node node;
    Real y = node.s;
  end Probe;
  model Nest
    inner outer Node node(s = 7);
  end Nest;
  inner State root(s = 1);
  Composite comp;
  inner Node node;
  Nest nest;
end InnerOuterModified;
// run: method=be step=0.5 stop=1
// expect: comp.outerPort.s 1
// expect: comp.root.s 6
// expect: comp.leaf.y 6
// expect: nest.node.probe.y 7
// expect: node.probe.y 2
