// 12.4.2: the type of a functional input must be a partial function without replaceable elements
partial function PF
  replaceable type T = Real;
  input T u;
  output Real y;
end PF;
function Sq
  input Real u;
  output Real y;
algorithm
  y := u*u;
end Sq;
function Apply
  input PF f;
  input Real u;
  output Real y;
algorithm
  y := f(u);
end Apply;
model FunctionalTypeWithReplaceable
  Real x;
equation
  x = Apply(Sq, time);
end FunctionalTypeWithReplaceable;
