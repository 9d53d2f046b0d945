// 6.6: function-compatibility: an input of A must have a default if the same input of B has one
function fB
  input Real a;
  input Real b = 1;
  output Real y;
algorithm
  y := a - b;
end fB;

function fA
  input Real a;
  input Real b;
  output Real y;
algorithm
  y := a - b;
end fA;

model Top
  replaceable function f = fB;
  Real z = f(1, 2);
end Top;

model FunctionDefaultDropped
  extends Top(redeclare function f = fA);
end FunctionDefaultDropped;
