// Protected connectors of a block in connection sets with an inside connector or a declared
// public one (specification 9.3): ui takes the public input u (the MSL's conditional inputs
// connect u to a protected u_internal so), pc the output of a protected component. At t = 1:
// ui = 1, pc = 1, y = 2*ui + pc = 3.
// run: method=be step=0.5 stop=1
// expect: out 3
model ProtectedConnectorSets
  connector RI = input Real;
  connector RO = output Real;
  block Src
    RO y;
  equation
    y = time;
  end Src;
  block Combine
    RI u;
    RO y;
  protected
    RI ui;
    RI pc;
    Src s;
  equation
    connect(u, ui);
    connect(s.y, pc);
    y = 2*ui + pc;
  end Combine;
  Src src;
  Combine d;
  Real out = d.y;
equation
  connect(src.y, d.u);
end ProtectedConnectorSets;
