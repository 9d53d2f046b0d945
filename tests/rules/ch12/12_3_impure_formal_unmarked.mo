// 12.3: a function with an impure functional formal parameter must be marked pure or impure
partial impure function IPF
  input Real u;
  output Real y;
end IPF;
function Sq
  input Real u;
  output Real y;
algorithm
  y := u*u;
end Sq;
function Apply
  input IPF f;
  input Real u;
  output Real y;
algorithm
  y := u;
end Apply;
model ImpureFormalUnmarked
  Real x;
equation
  x = Apply(Sq, time);
end ImpureFormalUnmarked;
