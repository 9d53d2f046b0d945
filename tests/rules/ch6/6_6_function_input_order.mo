// 6.6: function-compatibility: inputs of B must appear in A with the same names in the same order
function fB
  input Real a;
  input Real b;
  output Real y;
algorithm
  y := a - b;
end fB;

function fA
  input Real b;
  input Real a;
  output Real y;
algorithm
  y := a - b;
end fA;

model Top
  replaceable function f = fB;
  Real z = f(1, 2);
end Top;

model FunctionInputOrder
  extends Top(redeclare function f = fA);
end FunctionInputOrder;
