// Specification 3.7.4.2 and 8.6: in a when-condition, `initial()` combined with other terms
// is true only during initialisation, so `c and not initial()` is false at the start; a
// when-clause is active at initialisation only in the forms `when initial()` and
// `when {..., initial(), ...}`, so `when initial() or c` fires when c becomes true, not at
// the start. In a when-body `initial()` is true in the branch initial() fires and false in
// the others. c becomes true at t = 0.5: a = 10 at the start, then 11; b and n count one
// rising edge each; the algorithm form gives the same as a.
// run: method=be step=0.25 stop=1
// expect: a 11
// expect: b 1
// expect: n 1
// expect: q 11
model InitialInWhen
  discrete Real a(start = 0, fixed = true);
  discrete Real b(start = 0, fixed = true);
  discrete Real n(start = 0, fixed = true);
  discrete Real q(start = 0, fixed = true);
  Boolean c = time > 0.5;
equation
  when {initial(), c and not initial()} then
    a = if initial() then 10 else pre(a) + 1;
  end when;
  when initial() or c then
    b = pre(b) + 1;
  end when;
  when c and not initial() then
    n = pre(n) + 1;
  end when;
algorithm
  when {initial(), c and not initial()} then
    q := if initial() then 10 else pre(q) + 1;
  end when;
end InitialInWhen;
