// 9.3.1: in connector balancing an overdetermined type counts as the size of its equalityConstraint residue
record O3
  Real x[3];
  function equalityConstraint
    input O3 a;
    input O3 b;
    output Real residue[1];
  algorithm
    residue := {a.x[1] - b.x[1]};
  end equalityConstraint;
end O3;
connector C3
  O3 r;
  flow Real f[3];
end C3;
model N3
  C3 c;
equation
  Connections.root(c.r);
  c.r.x = {1, 2, 3};
end N3;
model OverdeterminedCount
  N3 n;
end OverdeterminedCount;
