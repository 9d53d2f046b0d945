// VdPLineComponents: the VdPLine circuit (Van der Pol oscillator + n-stage RLC line + RC
// load) built from Rtc.Electrical components instead of equations.
// Source: F.E. Cellier, E. Kofman, "Continuous System Simulation", Springer 2006,
//         eq. 10.13 (the Van der Pol conductor is eq. 10.9); parameters and initial
//         values as in tests/refdata/vdpline.py (reference: vdpline_n5_load.csv).
//
// Circuit:
//   node a (= capacitor.p): inductor, capacitor and cubic conductor in parallel to ground
//   stage j = 1..n: res[j] (R) and ind[j] (L) in series from node j-1 (node a for j = 1)
//                   to node j (= cap[j].p); shunt cap[j] (C) from node j to ground
//   load: resLoad (Rl) from node n to the load node, capLoad (Cl) from the load node to ground
//
// Mapping to the state variables of eq. 10.13 (model VdPLine, CSV columns):
//   iL  = inductor.i     uC  = capacitor.v     i<j> = ind[j].i     u<j> = cap[j].v
//   u_l = capLoad.v
// Check (KCL at each node, KVL over each series branch; i_cubic = k*uC^3 - uC):
//   C*der(uC)     = -inductor.i - cubic.i - res[1].i    = uC - k*uC^3 - iL - i1
//   L*der(iL)     = inductor.v                          = uC
//   L*der(i1)     = uC - R*i1 - u1 ,  L*der(ij) = u(j-1) - R*ij - uj      (j = 2..n)
//   C*der(uj)     = ij - i(j+1)                                           (j = 1..n-1)
//   C*der(un)     = in - resLoad.i                      = in - (un - u_l)/Rl
//   Cl*der(u_l)   = resLoad.i                           = (un - u_l)/Rl
// which is eq. 10.13 term by term: 2*n + 3 states (13 for n = 5), no algebraic loops,
// no index reduction needed.
model VdPLineComponents "Van der Pol oscillator with n-stage RLC line and RC load, component form"
  parameter Integer n = 5 "number of line segments";
  parameter Rtc.SI.Inductance L = 10e-3 "inductance of the oscillator and of each line segment";
  parameter Rtc.SI.Capacitance C = 1e-3 "capacitance of the oscillator and of each line segment";
  parameter Rtc.SI.Resistance R = 10 "series resistance of each line segment";
  parameter Real k(unit = "A/V3") = 0.04 "cubic coefficient of the Van der Pol conductor i = k*v^3 - v";
  parameter Rtc.SI.Resistance Rl = 1e3 "load resistance";
  parameter Rtc.SI.Capacitance Cl = 1e-9 "load capacitance";

  // Van der Pol oscillator
  Rtc.Electrical.Inductor inductor(L = L, i(start = 0, fixed = true)) "oscillator inductor (current iL)";
  Rtc.Electrical.Capacitor capacitor(C = C, v(start = 1, fixed = true)) "oscillator capacitor (voltage uC)";
  Rtc.Electrical.CubicConductor cubic(k = k) "Van der Pol negative resistor, i = k*v^3 - v";
  Rtc.Electrical.Ground ground "common ground";

  // transmission line
  Rtc.Electrical.Resistor res[n](each R = R) "series resistor of stage j";
  Rtc.Electrical.Inductor ind[n](each L = L, each i(start = 0, fixed = true)) "series inductor of stage j (current i[j])";
  Rtc.Electrical.Capacitor cap[n](each C = C, each v(start = 0, fixed = true)) "shunt capacitor of stage j (voltage u[j])";

  // RC load at the end of the line
  Rtc.Electrical.Resistor resLoad(R = Rl) "load resistor";
  Rtc.Electrical.Capacitor capLoad(C = Cl, v(start = 0, fixed = true)) "load capacitor (voltage u_l)";
equation
  // oscillator: everything between node a and ground
  connect(capacitor.p, inductor.p);
  connect(capacitor.p, cubic.p);
  connect(capacitor.n, ground.p);
  connect(inductor.n, ground.p);
  connect(cubic.n, ground.p);

  // stage 1 starts at node a, stage j at node j-1
  connect(capacitor.p, res[1].p);
  for j in 2:n loop
    connect(cap[j - 1].p, res[j].p);
  end for;
  // series R-L to node j, shunt C to ground
  for j in 1:n loop
    connect(res[j].n, ind[j].p);
    connect(ind[j].n, cap[j].p);
    connect(cap[j].n, ground.p);
  end for;

  // load
  connect(cap[n].p, resLoad.p);
  connect(resLoad.n, capLoad.p);
  connect(capLoad.n, ground.p);
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-3));
end VdPLineComponents;
