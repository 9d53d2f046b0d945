model JunctionSwitchOn "a junction fed through a resistor from a supply that switches on"
  parameter Real Is = 1e-14 "saturation current (A)";
  parameter Real Vt = 0.025 "thermal voltage (V)";
  parameter Real G = 1e-12 "leakage conductance (S)";
  parameter Real R = 1e3 "series resistance (Ohm)";
  parameter Real ton = 0.5 "time the supply switches on (s)";
  Real u = if time < ton then 0 else 1 "supply (V)";
  Real v(start = 0) "junction voltage";
  Real i "junction current";
equation
  i = Is*(exp(v/Vt) - 1) + G*v;
  (u - v)/R = i;
  annotation(experiment(StopTime = 1, Interval = 0.1));
end JunctionSwitchOn;
