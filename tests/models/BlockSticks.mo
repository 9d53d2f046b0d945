model BlockSticks "a block on a table slows down under friction and damping, sticks, and breaks away"
  // Sliding forward: m*der(v) = f - F0 - d*v, so with f = 0 from v(0) = 1:
  // v = 1.5*exp(-2 t) - 0.5, at rest at t1 = ln(3)/2. Stuck while |f| <= Fmax; the force
  // ramps up from t = 2 and breaks it away when f = Fmax, at t = 2.75.
  parameter Real m = 1 "mass";
  parameter Real F0 = 1 "sliding friction force";
  parameter Real Fmax = 1.5 "largest force of sticking friction";
  parameter Real d = 2 "viscous damping";
  Real s(start = 0, fixed = true) "position";
  Real v(start = 1, fixed = true) "speed";
  Real a "acceleration";
  Real f = if time < 2 then 0 else 2*(time - 2) "applied force";
  Real ff "friction force";
  Integer mode(start = 1, fixed = true) "1 forward, 0 stuck, -1 backward";
  Boolean startForward = pre(mode) == 0 and f > Fmax;
  Boolean startBackward = pre(mode) == 0 and f < -Fmax;
  Boolean locked = not (pre(mode) == 1 or startForward or pre(mode) == -1 or startBackward);
equation
  der(s) = v;
  der(v) = a;
  m*a = f - ff - d*v;
  0 = if locked then a else if startForward or pre(mode) == 1 then ff - F0 else ff + F0;
  mode = if (pre(mode) == 1 or startForward) and v > 0 then 1
    else if (pre(mode) == -1 or startBackward) and v < 0 then -1 else 0;
  annotation(experiment(StopTime = 4));
end BlockSticks;
