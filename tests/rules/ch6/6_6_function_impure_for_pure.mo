// 6.6: function-compatibility: if A is impure then B must be impure
function fB
  input Real a;
  output Real y;
algorithm
  y := a;
end fB;

impure function fA
  input Real a;
  output Real y;
algorithm
  y := a;
end fA;

model Top
  replaceable function f = fB;
  Real t = 1;
end Top;

model FunctionImpureForPure
  extends Top(redeclare function f = fA);
end FunctionImpureForPure;
