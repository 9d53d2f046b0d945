// 6.6: function-compatibility: outputs of B must appear in A with the same names in the same order, before additional outputs
function fB
  input Real a;
  output Real y1;
  output Real y2;
algorithm
  y1 := a;
  y2 := 2*a;
end fB;

function fA
  input Real a;
  output Real y2;
  output Real y1;
algorithm
  y1 := a;
  y2 := 2*a;
end fA;

model Top
  replaceable function f = fB;
  Real z = f(1);
end Top;

model FunctionOutputOrder
  extends Top(redeclare function f = fA);
end FunctionOutputOrder;
