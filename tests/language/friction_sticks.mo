// A mass sliding backward on Coulomb friction (the stuck-phase logic of Otter's friction
// element: a path parameter sa, sliding starts when the holding force exceeds F0max) comes to
// rest at t = 0.05 and sticks: the force f = 0.5 is below F0max. At that instant the frozen
// relations cycle when they all take their live values at once: sliding backward leaves
// sa = a - F0max = 18 > F0max (start forward), sliding forward gives sa = a + F0max = -8 < -F0max
// (start backward), and only sticking (sa = F = f = 0.5, every relation false) is consistent.
// Constant acceleration 20 until then, so trapezoid is exact: x = -1*0.05 + 10*0.05^2 = -0.025.
model FrictionSticks
  parameter Real m = 0.1;
  parameter Real f = 0.5;
  parameter Real F0 = 1.5 "sliding friction";
  parameter Real F0max = 2 "largest holding force";
  Real x(start = 0, fixed = true);
  Real v(start = -1, fixed = true);
  Real a;
  Real sa;
  Real F "friction force";
  Boolean startFwd(start = false, fixed = true);
  Boolean startBwd(start = false, fixed = true);
  Boolean locked(start = false);
  Integer mode(start = 3, fixed = true) "-1 backward, 0 stuck, 1 forward, 3 unknown";
equation
  der(x) = v;
  der(v) = a;
  m*a = f - F;
  startFwd = pre(mode) == 0 and (sa > F0max or pre(startFwd) and sa > F0) or initial() and v > 0;
  startBwd = pre(mode) == 0 and (sa < -F0max or pre(startBwd) and sa < -F0) or initial() and v < 0;
  locked = not (pre(mode) == 1 or startFwd or pre(mode) == -1 or startBwd);
  a = if locked then 0 else if startFwd then sa - F0max else if startBwd then sa + F0max
    else if pre(mode) == 1 then sa - F0max else if pre(mode) == -1 then sa + F0max
    else sa - sign(v)*F0max;
  F = if locked then sa else if startFwd then F0 else if startBwd then -F0
    else if pre(mode) == 1 then F0 else if pre(mode) == -1 then -F0 else sign(v)*F0;
  mode = if (pre(mode) == 1 or startFwd) and v > 0 then 1
    else if (pre(mode) == -1 or startBwd) and v < 0 then -1 else 0;
end FrictionSticks;
// run: method=trapezoid step=0.01 stop=0.3
// expect: mode 0
// expect: x -0.025
// expect: F 0.5
