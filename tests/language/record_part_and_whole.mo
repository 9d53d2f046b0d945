// Modifications of a record component's parts and of its whole value (specification 7.2.3):
// a whole value from outside replaces the declaration's whole value (b1.a = R(4, 5)); a part
// modified from outside replaces the declaration's value of that part where the declaration
// gives the parts, not the whole (b2.c(x = 7) over c(x = 2, y = 3)). s1 = 4 + 5 = 9,
// s2 = 7 + 3 = 10.
// run: method=be step=0.5 stop=1
// expect: s1 9
// expect: s2 10
model RecordPartAndWhole
  record R
    parameter Real x;
    parameter Real y;
  end R;
  model B
    parameter R a = R(2, 3);
    parameter R c(x = 2, y = 3);
  end B;
  B b1(a = R(4, 5));
  B b2(c(x = 7));
  Real s1 = b1.a.x + b1.a.y;
  Real s2 = b2.c.x + b2.c.y;
end RecordPartAndWhole;
