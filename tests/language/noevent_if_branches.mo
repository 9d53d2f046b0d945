// Specification 3.8.4: under an if whose condition is computed under noEvent from
// continuous-time values, Real equations and relations wrapped in noEvent are allowed; an
// Integer equation under a condition that generates events (x > 0.5, discrete-time) is
// allowed. (The invalid cases are tests/rules/ch3/3_8_4_*_under_continuous_if.mo.)
// der(x) = 1 from 0: x = t, exact for backward Euler; at t = 1 y = 2, z = 1, i = 1.
// run: method=be step=0.5 stop=1
// expect: y 2
// expect: z 1
// expect: i 1
model Top
  Real x(start = 0, fixed = true);
  Real y;
  Real z;
  Integer i;
equation
  der(x) = 1;
  y = if noEvent(x > 0.5) then (if noEvent(x > 0.7) then 2 else 1) else 0;
  if noEvent(x > 0.25) then
    z = x;
  else
    z = 0;
  end if;
  if x > 0.5 then
    i = 1;
  else
    i = 2;
  end if;
end Top;
