// Specification 6.3: a class reads a replaceable element through its constraining interface.
// Here `m` (of the replaceable class M = MA, constrained by MB) and `n` (a replaceable
// component of class MC, constrained by MB) are read through MB's `x` only, and `k`
// (replaceable, no constrainedby: its own type constrains it) through its `y`: a
// redeclaration to another class fitting MB keeps every reference valid. (The warned case is
// tests/rules/ch6/6_3_constraining_interface_access.mo.)
// At t = 1: m.x = 1, n.x = 3 (MC's), k.y = 2, z = m.x + n.x + k.y = 6.
// run: method=be step=0.5 stop=1
// expect: z 6
model ConstrainingInterfaceReads
  model MB
    Real x = 1;
  end MB;
  model MA
    extends MB;
    Real y = 2;
  end MA;
  model MC
    Real x = 3*time;
  end MC;
  replaceable model M = MA constrainedby MB;
  M m;
  replaceable MC n constrainedby MB;
  replaceable MA k;
  Real z = m.x + n.x + k.y;
end ConstrainingInterfaceReads;
