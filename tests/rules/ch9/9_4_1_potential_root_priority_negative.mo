// 9.4.1: the priority of Connections.potentialRoot must be >= 0
record O
  Real x;
  function equalityConstraint
    input O a;
    input O b;
    output Real residue[1];
  algorithm
    residue := {a.x - b.x};
  end equalityConstraint;
end O;
connector OC
  O r;
  flow Real f;
end OC;
model RootNode
  OC c;
equation
  Connections.root(c.r);
  c.r.x = 1;
end RootNode;
model Leaf
  OC c;
equation
  c.f = 0;
end Leaf;
model Link
  OC a, b;
equation
  Connections.branch(a.r, b.r);
  b.r = a.r;
  a.f + b.f = 0;
end Link;
model PRoot
  OC c;
equation
  Connections.potentialRoot(c.r, priority = -1);
  c.r.x = 1;
end PRoot;
model PotentialRootPriorityNegative
  PRoot n;
  Leaf k;
equation
  connect(n.c, k.c);
end PotentialRootPriorityNegative;
