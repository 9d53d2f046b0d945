// A machine's stator currents imposed by a current source: the source gives them as a
// rotation of (0, y), y a first-order filter's output; the winding's own currents (a, b),
// rotor-fixed, give them as the same rotation of (a, b). The rotation matrix has no start
// value: index reduction must read it from its equation (R(0) = identity) to see that the
// constraint R·(a, b) = R·(0, y) determines the inductor currents a, b from y, and keep the
// fixed states phi and y. With R read as zero every choice looks singular at the initial
// point, and the structural choice demoted y (and the run failed).
model ImposedRotorCurrent
  parameter Real L = 0.5 "winding inductance";
  parameter Real r = 2 "winding resistance";
  parameter Real T = 0.1 "filter time constant";
  parameter Real u = 3 "filter input";
  parameter Real w0 = 5 "rotor speed";
  Real phi(start = 0, fixed = true) "rotor angle";
  Real R[2, 2] "rotation from rotor to stator";
  Real y(start = 1, fixed = true) "current amplitude";
  Real a "winding current, d axis";
  Real b "winding current, q axis";
  Real i[2] "stator currents";
  Real v[2] "winding voltages";
equation
  der(phi) = w0;
  R = {{cos(phi), -sin(phi)}, {sin(phi), cos(phi)}};
  T*der(y) = u - y;
  i = R*{0, y};
  i = R*{a, b};
  v = L*der({a, b}) + r*{a, b};
  annotation(experiment(StopTime = 0.5, Interval = 0.01));
end ImposedRotorCurrent;
