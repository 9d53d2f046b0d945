// 12.4.2: a record constructor (or enumeration conversion) cannot be passed as a functional argument
record R
  Real u;
end R;
partial function PR
  input Real u;
  output R r;
end PR;
function ApplyR
  input PR f;
  input Real u;
  output Real y;
protected
  R r;
algorithm
  r := f(u);
  y := r.u;
end ApplyR;
function MkR
  input Real u;
  output R r;
algorithm
  r := R(u);
end MkR;
model RecordConstructorAsFunctionalArg
  Real x;
equation
  x = ApplyR(R, time);
end RecordConstructorAsFunctionalArg;
