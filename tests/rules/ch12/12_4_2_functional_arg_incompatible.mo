// 12.4.2: a function passed as functional argument must be function-compatible with the formal parameter
partial function PF
  input Real u;
  output Real y;
end PF;
function Two
  input Real u;
  input Real v;
  output Real y;
algorithm
  y := u + v;
end Two;
function Apply
  input PF f;
  input Real u;
  output Real y;
algorithm
  y := f(u);
end Apply;
model FunctionalArgIncompatible
  Real x;
equation
  x = Apply(Two, time);
end FunctionalArgIncompatible;
