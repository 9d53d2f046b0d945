// 12.3: an impure function may only be called from impure functions, when-clauses, pure(), initial sections, parameter/ext-object bindings
impure function Imp
  input Real u;
  output Real y;
algorithm
  y := u;
end Imp;
model ImpureCallInEquation
  Real x;
equation
  x = Imp(time);
end ImpureCallInEquation;
