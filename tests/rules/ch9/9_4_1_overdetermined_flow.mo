// 9.4.1: an overdetermined type or record may not be used as the type of a flow component
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
connector FC
  Real v;
  flow O f;
end FC;
model FN
  FC c;
equation
  c.v = 1;
end FN;
model OverdeterminedFlow
  FN n;
end OverdeterminedFlow;
