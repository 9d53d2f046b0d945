model Permeance "a flux tube's reluctance given, its permeance defined as the reluctance's reciprocal (as the MSL's FluxTubes leakage)"
  parameter Real R0 = 7e7 "reluctance at the start (1/H)";
  Real R_m = R0*(1 + time) "reluctance (1/H)";
  Real G_m "permeance (H)";
  Real Phi(start = 0, fixed = true) "flux (Wb)";
equation
  R_m = 1/G_m;
  der(Phi) = 1 - Phi*R_m*G_m;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end Permeance;
