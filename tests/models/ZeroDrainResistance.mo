model ZeroDrainResistance "an internal node behind a zero resistance, in a circuit that needs index reduction anyway"
  parameter Real Rd = 0 "drain resistance: none";
  parameter Real C = 1e-3 "capacitance of the internal node";
  parameter Real Cgd = 1e-3 "capacitance between the two supplies";
  parameter Real G = 0.5 "conductance from the internal node to ground";
  Real vs = sin(10*time) "supply";
  Real vg = 1 - cos(10*time) "gate";
  Real d(start = 0) "internal node";
  Real ird "current through the drain resistance";
  Real icgd "current of the capacitor between gate and supply";
  Real is "supply current";
  Real ig "gate current";
equation
  ird*Rd = vs - d;
  C*der(d) = ird - G*d;
  icgd = Cgd*(der(vg) - der(vs));
  is = -ird + icgd;
  ig = -icgd;
  annotation(experiment(StopTime = 1));
end ZeroDrainResistance;
