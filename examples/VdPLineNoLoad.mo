// VdPLineNoLoad: Van der Pol oscillator driving an n-stage RLC transmission line with an
// open (unloaded) end -- equation (state-space) form.
// Source: F.E. Cellier, E. Kofman, "Continuous System Simulation", Springer 2006,
//         eq. 10.10; parameters and initial values as in tests/refdata/vdpline.py
//         (reference: vdpline_n5_noload.csv).
// Variable names match the CSV columns: iL, uC, i[j] -> i<j>, u[j] -> u<j>.
// Compared with VdPLine (eq. 10.13) the stiff RC load is missing; the fastest stable
// eigenvalue is then about -979 at t = 0 (-2686 along the trajectory).
model VdPLineNoLoad "Van der Pol oscillator with n-stage RLC line, no load (Cellier & Kofman eq. 10.10)"
  parameter Integer n = 5 "number of line segments";
  parameter Real L(unit = "H") = 10e-3 "inductance of the oscillator and of each line segment";
  parameter Real C(unit = "F") = 1e-3 "capacitance of the oscillator and of each line segment";
  parameter Real R(unit = "Ohm") = 10 "series resistance of each line segment";
  parameter Real k(unit = "A/V3") = 0.04 "cubic coefficient of the Van der Pol conductor i = k*u^3 - u";
  Real iL(unit = "A", start = 0, fixed = true) "current through the oscillator inductor";
  Real uC(unit = "V", start = 1, fixed = true) "voltage across the oscillator capacitor";
  Real i[n](each unit = "A", each start = 0, each fixed = true) "series current of line segment j";
  Real u[n](each unit = "V", each start = 0, each fixed = true) "shunt capacitor voltage of line segment j";
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
  // open end of the line
  der(u[n]) = i[n]/C;
  annotation(experiment(StartTime = 0, StopTime = 2, Interval = 1e-3));
end VdPLineNoLoad;
