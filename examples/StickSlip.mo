// Stick-slip: a block on a belt that moves at vb, tied to the wall by a spring, with Coulomb
// friction between block and belt (the stuck-phase logic of Otter, Elmqvist and Mattsson's
// friction element: sliding starts when the holding force exceeds F0max, the sliding force is
// F0 < F0max). The block rides the belt until the spring force k*x passes F0max (x = 0.15 at
// t = 1.5), slips back, oscillates about x = F0/k and sticks again when its velocity meets the
// belt's; the cycle repeats. Every stick is an event instant where the frozen relations on the
// holding force must settle together (sticking is the only consistent mode there).
model StickSlip "Block on a moving belt: stick-slip oscillation"
  parameter Real m(unit = "kg") = 1 "block mass";
  parameter Real k(unit = "N/m") = 10 "spring stiffness";
  parameter Real vb(unit = "m/s") = 0.1 "belt speed";
  parameter Real F0(unit = "N") = 1 "sliding friction force";
  parameter Real F0max(unit = "N") = 1.5 "largest holding force";
  Real x(unit = "m", start = 0, fixed = true) "block position";
  Real v(unit = "m/s", start = 0.1, fixed = true) "block velocity";
  Real vrel(unit = "m/s") "block velocity relative to the belt";
  Real a(unit = "m/s2") "relative acceleration";
  Real sa "path parameter: the holding force when stuck";
  Real F(unit = "N") "friction force on the block, against vrel";
  Boolean startFwd(start = false, fixed = true);
  Boolean startBwd(start = false, fixed = true);
  Boolean locked(start = false);
  Integer mode(start = 3, fixed = true) "-1 backward, 0 stuck, 1 forward, 3 unknown";
equation
  der(x) = v;
  vrel = v - vb;
  der(v) = a;
  m*a = -k*x - F;
  startFwd = pre(mode) == 0 and (sa > F0max or pre(startFwd) and sa > F0) or initial() and vrel > 0;
  startBwd = pre(mode) == 0 and (sa < -F0max or pre(startBwd) and sa < -F0) or initial() and vrel < 0;
  locked = not (pre(mode) == 1 or startFwd or pre(mode) == -1 or startBwd);
  a = if locked then 0 else if startFwd then sa - F0max else if startBwd then sa + F0max
    else if pre(mode) == 1 then sa - F0max else if pre(mode) == -1 then sa + F0max
    else sa - sign(vrel)*F0max;
  F = if locked then sa else if startFwd then F0 else if startBwd then -F0
    else if pre(mode) == 1 then F0 else if pre(mode) == -1 then -F0 else sign(vrel)*F0;
  mode = if (pre(mode) == 1 or startFwd) and vrel > 0 then 1
    else if (pre(mode) == -1 or startBwd) and vrel < 0 then -1 else 0;
  annotation(experiment(StopTime = 10, Interval = 0.01));
end StickSlip;
