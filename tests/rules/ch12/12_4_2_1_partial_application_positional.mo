// 12.4.2.1: a function partial application binds formal parameters by named arguments only
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
model PartialApplicationPositional
  Real x;
equation
  x = Apply(function Two(2), time);
end PartialApplicationPositional;
