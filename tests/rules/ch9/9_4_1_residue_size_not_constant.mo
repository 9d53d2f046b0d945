// 9.4.1: the residue dimension of equalityConstraint shall be a constant Integer expression >= 0
record O
  Real x;
  function equalityConstraint
    input O a;
    input O b;
    output Real residue[:];
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
model ResidueSizeNotConstant
  RootNode n;
  Leaf k;
equation
  connect(n.c, k.c);
end ResidueSizeNotConstant;
