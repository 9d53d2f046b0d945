model HeatedResistor "a resistor heated by its own loss, driven from 0 V"
  // One loop: R_actual, i, Q, T. Left to Newton, v = R_actual*i torn on R_actual has a zero
  // Jacobian while the current is zero (at the start, v = 0); dividing i = v/R_actual, a
  // resistance that never vanishes, the loop solves.
  parameter Real R = 10 "resistance at Tref";
  parameter Real alpha = 0.01 "temperature coefficient";
  parameter Real Tref = 300;
  parameter Real G = 1 "thermal conductance to the ambient";
  parameter Real Tamb = 300;
  Real v = 10*sin(6.283185307179586*time);
  Real i;
  Real R_actual;
  Real T;
  Real Q;
equation
  R_actual = R*(1 + alpha*(T - Tref));
  v = R_actual*i;
  Q = v*i;
  Q = G*(T - Tamb);
  annotation(experiment(StopTime = 1));
end HeatedResistor;
