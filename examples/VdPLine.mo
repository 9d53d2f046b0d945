// VdPLine: Van der Pol oscillator driving an n-stage RLC transmission line that is
// terminated by an RC load -- equation (state-space) form.
// Source: F.E. Cellier, E. Kofman, "Continuous System Simulation", Springer 2006,
//         eq. 10.13 (with the RC load); parameters and initial values as in
//         tests/refdata/vdpline.py (reference: vdpline_n5_load.csv, for n = 50
//         vdpline_n50_load.csv).
// Variable names match the CSV columns: iL, uC, i[j] -> i<j>, u[j] -> u<j>, u_l.
// The load (Rl*Cl = 1e-6 s) is dynamically negligible but adds the stiff eigenvalue
// -1/(Rl*Cl) = -1e6; that is what this example is for (multi-rate / mixed-mode integration).
model VdPLine "Van der Pol oscillator with n-stage RLC line and RC load (Cellier & Kofman eq. 10.13)"
  parameter Integer n = 5 "number of line segments";
  parameter Real L(unit = "H") = 10e-3 "inductance of the oscillator and of each line segment";
  parameter Real C(unit = "F") = 1e-3 "capacitance of the oscillator and of each line segment";
  parameter Real R(unit = "Ohm") = 10 "series resistance of each line segment";
  parameter Real k(unit = "A/V3") = 0.04 "cubic coefficient of the Van der Pol conductor i = k*u^3 - u";
  parameter Real Rl(unit = "Ohm") = 1e3 "load resistance";
  parameter Real Cl(unit = "F") = 1e-9 "load capacitance";
  // The oscillator is the fast partition of multi-rate integration (§10.5): 10 sub-steps per
  // step of the line (annotation(__rtc(ratio = 10)) below).
  Real iL(unit = "A", start = 0, fixed = true) "current through the oscillator inductor"
    annotation(__rtc(fast = true));
  Real uC(unit = "V", start = 1, fixed = true) "voltage across the oscillator capacitor"
    annotation(__rtc(fast = true));
  Real i[n](each unit = "A", each start = 0, each fixed = true) "series current of line segment j";
  Real u[n](each unit = "V", each start = 0, each fixed = true) "shunt capacitor voltage of line segment j";
  // The fast load pole (-1/(Rl*Cl) = -1e6 1/s): backward Euler in mixed mode (eq. 10.16).
  Real u_l(unit = "V", start = 0, fixed = true) "load capacitor voltage"
    annotation(__rtc(implicit = true));
equation
  // Van der Pol oscillator: L-C tank in parallel with the cubic conductor, feeding the line
  der(iL) = uC/L;
  der(uC) = (uC - k*uC^3 - iL - i[1])/C;
  // line: series R-L from the previous node to node j, shunt C at node j
  der(i[1]) = uC/L - R/L*i[1] - u[1]/L;
  for j in 2:n loop
    der(i[j]) = u[j - 1]/L - R/L*i[j] - u[j]/L;
  end for;
  for j in 1:(n - 1) loop
    der(u[j]) = (i[j] - i[j + 1])/C;
  end for;
  // last node, loaded by Rl in series with Cl
  der(u[n]) = i[n]/C - (u[n] - u_l)/(Rl*C);
  der(u_l) = (u[n] - u_l)/(Rl*Cl);
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-3), __rtc(ratio = 10));
end VdPLine;
