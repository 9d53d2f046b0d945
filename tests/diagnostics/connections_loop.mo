model ConnectionsLoop
  record Reference
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
  model Node
    QPin p;
    Boolean root = Connections.isRoot(p.ref);
  equation
    Connections.potentialRoot(p.ref);
    if Connections.isRoot(p.ref) then
      p.ref.theta = 0;
    end if;
    p.v = p.i;
  end Node;
  Node x;
  Node y;
  Node z;
equation
  connect(x.p, y.p);
  connect(y.p, z.p);
  connect(z.p, x.p);
end ConnectionsLoop;
