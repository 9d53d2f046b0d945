// A parameter with `fixed = false` that an initial equation gives from variables
// (specification 8.6), as the MSL's analytic loop joints pick the branch of their solution
// from the mechanism's positions at the start (`positiveBranch = selectBranch(…, r_a, r_b)`):
// `up` is computed at the solution of the other initial equations (x = x0 = 4, so up = true;
// at x's start value 0 it would be false), and the run uses it: y = sqrt(x) = 2.
// run: method=be step=0.125 stop=1
// expect: up 1
// expect: y 2
// expect: x 4
model ParameterFromInitialSolution
  parameter Real x0 = 4;
  parameter Boolean up(fixed = false);
  Real x(start = 0);
  Real y;
equation
  der(x) = 0;
  y = if up then sqrt(x) else -sqrt(x);
initial equation
  x = x0;
  up = x > 1;
end ParameterFromInitialSolution;
