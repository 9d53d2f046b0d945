// 6.6: function-compatibility: an input of A not present in B must have a default
function fB
  input Real a;
  output Real y;
algorithm
  y := a;
end fB;

function fA
  input Real a;
  input Real c;
  output Real y;
algorithm
  y := a + c;
end fA;

model Top
  replaceable function f = fB;
  Real t = 1;
end Top;

model FunctionExtraInputNoDefault
  extends Top(redeclare function f = fA);
end FunctionExtraInputNoDefault;
