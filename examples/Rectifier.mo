// Half-wave rectifier: a sine source feeds an RC load through an ideal-switch diode (a small
// on-resistance, a small off-conductance). The diode's branch is chosen by the relation
// vd > 0 in an if-expression, which generates state events: each switching is located by one
// interpolation and no step straddles it. Switching times are checked against an independent
// scipy computation (tests/references/rectifier.py).
model Rectifier "Half-wave rectifier with an ideal-switch diode and an RC load"
  parameter Real V(unit = "V") = 10 "source amplitude";
  parameter Real f(unit = "Hz") = 50 "source frequency";
  parameter Real Ron(unit = "Ohm") = 0.1 "diode on resistance";
  parameter Real Goff(unit = "S") = 1e-6 "diode off conductance";
  parameter Real C(unit = "F") = 1e-4 "load capacitance";
  parameter Real R(unit = "Ohm") = 100 "load resistance";
  Real vs(unit = "V") "source voltage";
  Real vd(unit = "V") "diode voltage";
  Real id(unit = "A") "diode current";
  Real vC(unit = "V", start = 0, fixed = true) "load voltage";
equation
  vs = V*sin(2*3.141592653589793*f*time);
  vd = vs - vC;
  id = if vd > 0 then vd/Ron else vd*Goff;
  C*der(vC) = id - vC/R;
  annotation(experiment(StartTime = 0, StopTime = 0.1, Interval = 1e-4));
end Rectifier;
