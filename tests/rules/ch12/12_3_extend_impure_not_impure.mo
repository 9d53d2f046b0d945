// 12.3: a function extending an impure function shall be declared impure
impure function Base
  input Real u;
  output Real y;
algorithm
  y := u;
end Base;
function Derived
  extends Base;
end Derived;
model ExtendImpureNotImpure
  Real x;
algorithm
  when sample(0, 0.1) then
    x := Derived(time);
  end when;
end ExtendImpureNotImpure;
