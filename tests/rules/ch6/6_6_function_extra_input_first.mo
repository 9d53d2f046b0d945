// 6.6: function-compatibility: inputs of B must precede any additional inputs of A
function fB
  input Real a;
  input Real b;
  output Real y;
algorithm
  y := a - b;
end fB;

function fA
  input Real c = 0;
  input Real a;
  input Real b;
  output Real y;
algorithm
  y := a - b + c;
end fA;

model Top
  replaceable function f = fB;
  Real z = f(1, 2);
end Top;

model FunctionExtraInputFirst
  extends Top(redeclare function f = fA);
end FunctionExtraInputFirst;
