// 3.8: (x1, ..., xn) := expr: every xi must be at least as variable as expr
function F
  input Real u;
  output Boolean a;
  output Boolean b;
algorithm
  a := u > 0;
  b := u > 1;
end F;
model MultipleAssignmentVariability
  Real x = time;
  Boolean b1, b2;
algorithm
  (b1, b2) := F(x);
end MultipleAssignmentVariability;
