// 12.3: an impure function can only be passed to a functional formal parameter of impure type
partial function PF
  input Real u;
  output Real y;
end PF;
impure function Imp
  extends PF;
algorithm
  y := u;
end Imp;
function Apply
  input PF f;
  input Real u;
  output Real y;
algorithm
  y := f(u);
end Apply;
model ImpurePassedAsPureArg
  Real x;
algorithm
  when sample(0, 0.1) then
    x := Apply(Imp, time);
  end when;
end ImpurePassedAsPureArg;
