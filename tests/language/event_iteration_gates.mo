// Specification 8.6: at an event instant, `pre(v)` of a discrete variable is its value in the
// previous round of the event iteration, so a chain of `x = pre(y)` (the MSL's digital gates
// write their outputs so) settles within the instant instead of one step per link. u switches
// at the time event 0.5; x1, x2 and x3 follow in three more rounds at the same instant, and
// `when change(x3)` fires there. z integrates x3: exactly 0.5 at t = 1.
model EventIterationGates
  Boolean u = time >= 0.5;
  Boolean x1;
  Boolean x2;
  Boolean x3;
  Integer n(start = 0, fixed = true);
  Real z(start = 0, fixed = true);
equation
  x1 = pre(u);
  x2 = pre(x1);
  x3 = pre(x2);
  when change(x3) then
    n = pre(n) + 1;
  end when;
  der(z) = if x3 then 1 else 0;
end EventIterationGates;
// run: method=be step=0.1 stop=1
// expect: x3 1
// expect: n 1
// expect: z 0.5
