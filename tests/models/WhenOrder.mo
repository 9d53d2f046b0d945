// when/elsewhen priority and sorted assignments. At t = 0 `initial()` acts at the
// initialisation (y = 1); the sample at 0 is false then and ticks at the event right after
// it, taking the elsewhen branch (y = 11), as later samples do. Inside a body, `b = a + 1`
// reads the new `a` although written before it.
model WhenOrder
  Real x(start = 0, fixed = true);
  discrete Real y(start = 0);
  discrete Real a(start = 0);
  discrete Real b(start = 0);
equation
  der(x) = 1;
  when initial() then
    y = 1;
  elsewhen sample(0, 0.25) then
    y = pre(y) + 10;
  end when;
  when x > 0.1 then
    b = a + 1;
    a = 5;
  end when;
end WhenOrder;
