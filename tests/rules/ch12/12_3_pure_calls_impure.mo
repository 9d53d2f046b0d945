// 12.3: an impure Modelica function shall be marked impure (a non-impure function may not call an impure one)
impure function Imp
  input Real u;
  output Real y;
algorithm
  y := u;
end Imp;
function F
  input Real u;
  output Real y;
algorithm
  y := Imp(u);
end F;
model PureCallsImpure
  Real x;
equation
  x = F(time);
end PureCallsImpure;
