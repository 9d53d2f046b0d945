// Specification 7.1.3: a record may extend a plain class that has only what a record may
// have (public components), and stays a record: its fields are bound in a modifier. (The
// invalid case, a class with an equation, is
// tests/rules/ch7/7_1_3_derived_from_class_breaks_restriction.mo.)
// z = r.x + r.y = 1 + 2 = 3 at every time.
// run: method=be step=0.5 stop=1
// expect: z 3
model Top
  class Point
    Real x;
    Real y;
  end Point;
  record R
    extends Point;
  end R;
  R r(x = 1, y = 2);
  Real z = r.x + r.y;
end Top;
