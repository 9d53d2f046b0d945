model ChargeRamp "JunctionRamp's circuit with its two capacitive currents apart (torn on der(v)) and a gentler exponential (slope voltage 1 V)"
  parameter Real Is = 1e-6 "saturation current (A)";
  parameter Real Vt = 1 "slope voltage of the exponential (V)";
  parameter Real G = 1e-12 "leakage conductance (S)";
  parameter Real R = 1e3 "series resistance (Ohm)";
  parameter Real C = 5e-9 "depletion capacitance (F)";
  parameter Real Tf = 6e-10 "transit time (s)";
  parameter Real Tr = 2e-9 "rise time of the supply (s)";
  Real u = if time < Tr then 12*time/Tr else 12 "supply (V)";
  Real v(start = 0, fixed = true) "junction voltage";
  Real i "junction current";
  Real g "junction conductance";
  Real icd "depletion capacitance's current";
  Real ict "diffusion capacitance's current";
equation
  i = Is*(exp(v/Vt) - 1) + G*v;
  g = Is/Vt*exp(v/Vt) + G;
  icd = C*der(v);
  ict = Tf*g*der(v);
  (u - v)/R = i + icd + ict;
  annotation(experiment(StopTime = 0.01, Interval = 0.001));
end ChargeRamp;
