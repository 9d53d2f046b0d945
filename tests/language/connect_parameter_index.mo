// A connection to an element of a connector array indexed by a parameter (specification 9.1:
// the subscripts of a connector reference are parameter expressions; the MSL's RobotR3
// `connect(q_axisUsed.u, q[axisUsed])`). With k = 2 the pass-through reads q[2] = 20; y = 20
// and der(x) = y gives x(1) = 20 with forward Euler.
// run: method=fe step=0.5 stop=1
// expect: y 20
// expect: x 20
model ConnectParameterIndex
  connector RealInput = input Real;
  connector RealOutput = output Real;
  block Pass
    RealInput u;
    RealOutput y;
  equation
    y = u;
  end Pass;
  model Map
    parameter Integer used = 1;
    RealInput q[3];
    RealOutput y;
    Pass p;
  equation
    connect(p.u, q[used]);
    connect(p.y, y);
  end Map;
  parameter Integer k = 2;
  Map m(used = k);
  Real y = m.y;
  Real x(start = 0, fixed = true);
equation
  m.q = {10, 20, 30};
  der(x) = y;
end ConnectParameterIndex;
