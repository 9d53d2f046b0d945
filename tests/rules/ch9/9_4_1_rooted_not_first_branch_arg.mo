// 9.4.1: Connections.rooted(A.R) requires exactly one Connections.branch with A.R as its first argument
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
model LinkR
  OC a, b;
  Real x;
equation
  Connections.branch(a.r, b.r);
  b.r = a.r;
  a.f + b.f = 0;
  x = if Connections.rooted(b.r) then 1 else 2;
end LinkR;
model RootedNotFirstBranchArg
  RootNode n;
  LinkR k;
equation
  connect(n.c, k.a);
end RootedNotFirstBranchArg;
