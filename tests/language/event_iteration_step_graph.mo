// Specification 8.6, the event iteration, on the pattern of the MSL's StateGraph: two steps A
// and B, each transition firing one second after its step became active (`time >= t + 1`, a
// relation of time and a discrete variable: a time event re-read after every instant). The
// initial step is given by `initial equation aActive = true` with `aActive = pre(aNew)`:
// pre(aNew) is true at the start. At t = 1 fire1 moves the token to B (aNew, bNew change;
// the next round's pre values make B active), `when bActive` sets t2 = 1 in that round, and
// fire2 waits for t = 2. So A is active on [0, 1), [2, 3), [4, 5), B on [1, 2), [3, 4), [5, 6);
// fire1 acts at 1, 3 and 5. At 5.5: B active, t1 = 4, t2 = 5, count = 3.
model EventIterationStepGraph
  Boolean aNew;
  Boolean bNew;
  Boolean aActive;
  Boolean bActive;
  Boolean fire1;
  Boolean fire2;
  discrete Real t1(start = 0, fixed = true);
  discrete Real t2(start = 0, fixed = true);
  Integer count(start = 0, fixed = true);
initial equation
  aActive = true;
equation
  aActive = pre(aNew);
  bActive = pre(bNew);
  aNew = fire2 or (aActive and not fire1);
  bNew = fire1 or (bActive and not fire2);
  when aActive then
    t1 = time;
  end when;
  when bActive then
    t2 = time;
  end when;
  fire1 = aActive and time >= t1 + 1;
  fire2 = bActive and time >= t2 + 1;
  when fire1 then
    count = pre(count) + 1;
  end when;
end EventIterationStepGraph;
// run: method=be step=0.1 stop=5.5
// expect: count 3
// expect: aActive 0
// expect: bActive 1
// expect: t1 4
// expect: t2 5
