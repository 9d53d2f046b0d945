// A when-condition on time acts once at its instant (specification 8.5, 8.6), also when the
// instant at the end of a step, run for a discrete variable that changed there without an
// event of its own (`ad`, a delayed Integer), has already found it true and acted on it. The
// time event was scheduled at the step's start; it is checked again before it acts, and an
// event whose condition is already true, or whose time its actions moved on (an inertial
// delay's `t_next`), does not act a second time. Before the fix `n` counted 2: the MSL's
// Digital FullAdder took the second action for the end of a 1 ms glitch and set its XOR
// output back 1 ms early.
// At 0.25 `a` changes, `tB` := 0.35; at 0.35 `ad` changes (m = 1) and `time >= tB` acts
// once (n = 1); `tC` moves on to 0.45 at 0.35 before its old time 0.35 comes (k counts 1, at
// 0.45).
// run: method=be step=0.05 stop=1
// expect: n 1
// expect: m 1
// expect: k 1
model TimeEventOnce
  parameter Real d = 0.1;
  Integer a = if time >= 0.25 then 1 else 0;
  Integer ad = integer(delay(a, d) + 0.5);
  discrete Real tB(start = 10, fixed = true);
  discrete Real tC(start = 10, fixed = true);
  Integer n(start = 0, fixed = true);
  Integer m(start = 0, fixed = true);
  Integer k(start = 0, fixed = true);
algorithm
  when change(a) then
    tB := time + d;
    tC := time + d;
  end when;
  when change(ad) then
    tC := time + d;
  elsewhen time >= tC then
    k := pre(k) + 1;
  end when;
  when time >= tB then
    n := pre(n) + 1;
  end when;
  when change(ad) then
    m := pre(m) + 1;
  end when;
end TimeEventOnce;
