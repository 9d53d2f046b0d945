// An initial equation (specification 8.6) whose value depends on a relation: at the start
// `x < 4` has the value it has at the solution (true: q = 2, x(0) = 2), not the relation's
// unset value (false: q = 5, which made x(0) = 5). Backward Euler integrates x' = 1 exactly:
// x(1) = 2 + 1, still below 4.
// run: method=be step=0.125 stop=1
// expect: x 3
// expect: q 2
model InitialRelationAtStart
  Real x;
  Real q;
equation
  der(x) = 1;
  q = if x < 4 then 2 else 5;
initial equation
  x = q;
end InitialRelationAtStart;
