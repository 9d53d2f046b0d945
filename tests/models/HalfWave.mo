model HalfWave "a half-wave rectifier: a sine source, a series inductance, an ideal diode, an RC load"
  // The diode as the MSL's ideal diode (a curve parameter s, blocking for s < 0). When it
  // turns off, the stiff mode L*Goff (1e-9 s) is far below the step: the trapezoid maps it to
  // z = -1 and the current rings around zero, so `s < 0` flips back within steps (chattering).
  parameter Real V = 100 "source amplitude";
  parameter Real f = 50 "source frequency";
  parameter Real L = 1e-4 "series inductance";
  parameter Real R = 10 "load resistance";
  parameter Real C = 1e-4 "load capacitance";
  parameter Real Ron = 1e-5 "diode on resistance";
  parameter Real Goff = 1e-5 "diode off conductance";
  Real i(start = 0, fixed = true) "inductor current";
  Real vc(start = 0, fixed = true) "load voltage";
  Real vd "diode voltage";
  Real s(start = 0) "diode curve parameter";
  Boolean off(start = true) "diode blocking";
equation
  off = s < 0;
  vd = s*(if off then 1 else Ron);
  i = s*(if off then Goff else 1);
  L*der(i) = V*sin(2*3.141592653589793*f*time) - vd - vc;
  C*der(vc) = i - vc/R;
  annotation(experiment(StopTime = 0.04, Interval = 5e-6));
end HalfWave;
