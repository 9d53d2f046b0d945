// Specification 6.4: an element that stands for a final one keeps its contents, and a
// conditional component stands for one whose condition is equivalent. Here the replacing
// model repeats the constraining class's final value (`1.0` for `1`: the same value) and its
// condition (`b`, each class's own parameter), and adds an output. (The invalid cases are
// tests/rules/ch6/6_4_final_different_contents.mo and 6_4_condition_not_equivalent.mo.)
// m.p = 1, m.x = 2 (present: b), m.y = m.p + 2·time = 3 at t = 1.
// run: method=be step=0.5 stop=1
// expect: m.y 3
model RedeclareFinalAndCondition
  model MB
    parameter Boolean b = true;
    final parameter Real p = 1;
    parameter Real x = 2 if b;
  end MB;
  model MA
    parameter Boolean b = true;
    final parameter Real p = 1.0;
    parameter Real x = 2 if b;
    Real y = p + 2*time;
  end MA;
  replaceable model M = MA constrainedby MB;
  M m;
end RedeclareFinalAndCondition;
