// Specification 18.4: a class with a TestCase annotation may be used in a class that has one
// too (the invalid case, a class without one, is tests/rules/ch18/18_4_testcase_class_used.mo).
// der(x) = 1 from 0: x = t, exact for backward Euler; y = 2 c.x.
// run: method=be step=0.5 stop=1
// expect: c.x 1
// expect: y 2
model Top
  model Case
    Real x(start = 0, fixed = true);
  equation
    der(x) = 1;
    annotation(TestCase(shouldPass = true));
  end Case;
  Case c;
  Real y = 2 * c.x;
  annotation(TestCase(shouldPass = true));
end Top;
