model HeatedGate
  "A two-transistor NOR gate whose transistors heat a common sink through thermal conductors:
  at rest at the start (every source at 0), the supply ramping up, then input 1 driven high"
  // At rest every voltage and current is zero. Transistor 2's loss-power equation, solved for
  // its base-emitter current, would divide by vbe/bf + qbk*vce, zero at rest: tearing leaves
  // it to Newton.
  model Transistor "Ebers-Moll NPN with temperature-dependent saturation current"
    parameter Real Is = 1e-16;
    parameter Real bf = 50;
    parameter Real br = 0.1;
    parameter Real Vak = 0.02 "inverse early voltage";
    parameter Real Gbe = 1e-15;
    parameter Real Gbc = 1e-15;
    Real vb, vc, ve "base, collector, emitter potentials";
    Real ib, ic, ie "currents into the terminals";
    Real T(start = 293.15) "junction temperature";
    Real Q "dissipated power";
    Real vbe, vbc, vt, ist, qbk, ibe, ibc;
  equation
    vbe = vb - ve;
    vbc = vb - vc;
    vt = 8.617e-5*T;
    ist = Is*(T/300)^3;
    qbk = 1 - vbc*Vak;
    ibe = ist*(exp(vbe/vt) - 1) + vbe*Gbe;
    ibc = ist*(exp(vbc/vt) - 1) + vbc*Gbc;
    ic = (ibe - ibc)*qbk - ibc/br;
    ib = ibe/bf + ibc/br;
    ie = -ib - ic;
    Q = vbc*ibc/br + vbe*ibe/bf + (ibe - ibc)*qbk*(vc - ve);
  end Transistor;
  parameter Real C = 0.1 "heat capacity of the sink";
  parameter Real G = 0.01 "thermal conductance, each junction to the sink";
  parameter Real Rin = 1800 "base resistors";
  parameter Real Rl = 40 "load resistor";
  Transistor t1, t2;
  Real vs "supply, ramping from 0";
  Real v1 "input 1, high from t = 6";
  Real v2 "input 2, low";
  Real vout "collectors";
  Real T(start = 293.15, fixed = true) "sink temperature";
  Real dT1, dT2 "temperature drops of the conductors";
  Real q1, q2 "heat flows of the conductors";
equation
  vs = 6*min(time/5, 1);
  v1 = 5*min(max(time - 5, 0), 1);
  v2 = 0;
  t1.ve = 0;
  t2.ve = 0;
  t1.ib = (v1 - t1.vb)/Rin;
  t2.ib = (v2 - t2.vb)/Rin;
  t1.vc = vout;
  t2.vc = vout;
  t1.ic + t2.ic = (vs - vout)/Rl;
  dT1 = t1.T - T;
  q1 = G*dT1;
  dT2 = t2.T - T;
  q2 = G*dT2;
  t1.Q = q1;
  t2.Q = q2;
  C*der(T) = q1 + q2;
  annotation(experiment(StopTime = 10, Interval = 0.01));
end HeatedGate;
