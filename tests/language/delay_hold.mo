// delay of a value that changes only at events (specification 3.7.4.1): held, not
// interpolated. n counts sample ticks at 0.2, 0.4, …, on the grid of the 0.1 steps, so the
// buffer's newest sample is refreshed after each tick. y = n(t − 0.3) and y2 = n(t − 0.25)
// (between two samples: the older one, never a value between two counts); xr = Integer(pre(n))
// is a Real that changes only at events, held too. At t = 1: n(0.7) = n(0.75) = 3, and
// w = n(0.8) = 4 and z = xr(0.85) = 4, the count right after the tick at 0.8 (the refreshed
// sample; without the refresh both read 3).
// run: method=be step=0.1 stop=1
// expect: w 4
// expect: y 3
// expect: y2 3
// expect: z 4
model DelayHold
  Integer n(start = 0, fixed = true);
  Real xr = Integer(pre(n));
  Real w = delay(n, 0.2);
  Real y = delay(n, 0.3);
  Real y2 = delay(n, 0.25);
  Real z = delay(xr, 0.15);
equation
  when sample(0.2, 0.2) then
    n = pre(n) + 1;
  end when;
end DelayHold;
