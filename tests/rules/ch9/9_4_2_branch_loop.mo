// 9.4.2: required edges must allow a spanning tree per root: no loop of Connections.branch edges
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
model Loop
  OC a, b;
equation
  Connections.branch(a.r, b.r);
  Connections.branch(b.r, a.r);
  b.r = a.r;
  a.f + b.f = 0;
end Loop;
model BranchLoop
  RootNode n;
  Loop k;
equation
  connect(n.c, k.a);
end BranchLoop;
