// delay(expr, delayTime) (specification 3.7.4.1): expr at time − delayTime, and expr at the
// start time before that. The buffer holds x sampled every step and is read by linear
// interpolation, exact for x linear in time: delay 0.25 with steps of 0.1 reads halfway
// between samples. A time event at 0.55 splits a step (two parts and a zero-length step)
// without moving the samples. y(1) = 2·(1 − 0.25) = 1.5; w = x(0) = 0 until t = 2; n = 1;
// v, the same delay assigned in an algorithm section, 1.5.
// run: method=be step=0.1 stop=1
// expect: y 1.5
// expect: w 0
// expect: n 1
// expect: v 1.5
model Delay
  Real x = 2 * time;
  Real y = delay(x, 0.25);
  Real w = delay(x, 2, 3);
  Integer n(start = 0, fixed = true);
  Real v;
algorithm
  v := delay(x, 0.25);
equation
  when time >= 0.55 then
    n = pre(n) + 1;
  end when;
end Delay;
