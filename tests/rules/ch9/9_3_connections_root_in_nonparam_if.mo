// 9.3: Connections.branch/root/potentialRoot, like connect, not inside if-equations with non-parameter conditions
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
model RootNodeless
  OC c;
equation
  c.r.x = 1;
end RootNodeless;
model ConnectionsRootInNonparamIf
  RootNodeless n;
equation
  if time > 0.5 then
    Connections.root(n.c.r);
  end if;
end ConnectionsRootInNonparamIf;
