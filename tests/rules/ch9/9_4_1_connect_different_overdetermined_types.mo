// 9.4.1: connected overdetermined type/record instances shall have the same type
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
record O2
  Real x;
  function equalityConstraint
    input O2 a;
    input O2 b;
    output Real residue[1];
  algorithm
    residue := {a.x - b.x};
  end equalityConstraint;
end O2;
connector OC2
  O2 r;
  flow Real f;
end OC2;
model M2
  OC2 c;
equation
  c.f = 0;
end M2;
model ConnectDifferentOverdeterminedTypes
  RootNode n;
  M2 m;
equation
  connect(n.c, m.c);
end ConnectDifferentOverdeterminedTypes;
