model SingularLoop "a linear loop whose Jacobian is singular at p = 1"
  // Torn on one of a, b, the loop's 1×1 Jacobian is p - 1 = 0: a zero column. With c = 0 the
  // two equations say the same (consistent): the free unknown keeps its value and the run
  // goes on. With c = 1 they contradict each other from t > 0 (inconsistent): the run stops
  // on the singular Jacobian.
  parameter Real p = 1;
  parameter Real c = 0 "inconsistency";
  Real x(start = 0, fixed = true);
  Real a(start = 0);
  Real b(start = 0);
equation
  der(x) = -a;
  p*a + b = 1 + c*time;
  a + b = 1;
end SingularLoop;
