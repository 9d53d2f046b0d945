model ZeroJunctionCapacitance "a junction capacitance read through another variable, zero at the parameters (a transistor without transit time or depletion capacitance)"
  parameter Real Taur = 0 "transit time: none";
  parameter Real Cjc = 0 "depletion capacitance: none";
  parameter Real G = 1e-3 "conductance to the source";
  parameter Real Gl = 1e-3 "conductance to ground";
  Real u = sin(10*time) "source";
  Real v(start = 0) "junction voltage";
  Real cdep "depletion capacitance";
  Real c "junction capacitance";
  Real ic "capacitor current";
equation
  cdep = Cjc*(1 + v^2);
  c = Taur*exp(v) + cdep;
  ic = c*der(v);
  ic + Gl*v = G*(u - v);
  annotation(experiment(StopTime = 1));
end ZeroJunctionCapacitance;
