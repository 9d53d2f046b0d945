// Specification 8.5: a relation is frozen between events and takes its value at event
// instants with the rest of the model. `expired = y >= 1` on y = time − entry fires its
// when-equation, which restarts the timer in the same instant (entry = time): the relation's
// live value, false again, is taken at that instant, so the timer expires every second (at 1,
// 2 and 3 by 3.5; eight steps apart, not closer, so the chattering rule leaves it alone). At
// 3.5, y = 0.5.
model FrozenRelationTimer
  discrete Real entry(start = 0, fixed = true);
  Real y = time - entry;
  Boolean expired = y >= 1;
  Integer n(start = 0, fixed = true);
equation
  when expired then
    entry = time;
    n = pre(n) + 1;
  end when;
end FrozenRelationTimer;
// run: method=trapezoid step=0.125 stop=3.5
// expect: n 3
// expect: y 0.5
