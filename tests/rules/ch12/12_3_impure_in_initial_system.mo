// 12.3: an impure call in initial equations/algorithms/bindings must not be part of a system of equations (called repeatedly)
impure function Imp
  input Real u;
  output Real y;
algorithm
  y := u;
end Imp;
model ImpureInInitialSystem
  parameter Real p(fixed = false);
  parameter Real q(fixed = false);
initial equation
  p = Imp(q) + 1;
  q = 0.5*p;
end ImpureInInitialSystem;
