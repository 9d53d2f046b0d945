model ConnectionsBranch
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
  model TwoPort
    QPin a;
    QPin b;
  equation
    Connections.branch(a.ref, b.ref);
    a.ref.theta = b.ref.theta;
    a.v = b.v;
    a.i + b.i = 0;
  end TwoPort;
  TwoPort t;
end ConnectionsBranch;
