// The branches of an if-expression: a Boolean and a Real.
model TypeIfBranches
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  y = if x > 0.5 then true else 0.0;
end TypeIfBranches;
