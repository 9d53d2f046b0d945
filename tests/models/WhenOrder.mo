// when/elsewhen priority and sorted assignments. At t = 0 both `initial()` and the sample at
// 0 fire in one instant: only the first branch acts (y = 1). Later samples take the elsewhen
// branch. Inside a body, `b = a + 1` reads the new `a` although written before it.
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
