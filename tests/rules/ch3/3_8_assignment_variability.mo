// 3.8: assignment v := expr: v must be at least as variable as expr
model AssignmentVariability
  Real x = time;
  Boolean b;
algorithm
  b := noEvent(x > 1);
end AssignmentVariability;
