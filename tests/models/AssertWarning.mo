// Assertions of level warning (specification 8.3.7): one in the equations, one in a function's
// algorithm. x = t; the first fails from t = 1.25 on, the second from t = 1.5 on (steps of
// 0.25); each is reported with the time of its first failure and the number of failed checks,
// and the run goes on to its stop time.
model AssertWarning
  function limited
    input Real u;
    output Real y;
  algorithm
    assert(u < 1.5, "u reached 1.5", AssertionLevel.warning);
    y := u;
  end limited;
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  y = limited(x);
  assert(x <= 1, "x above 1", level = AssertionLevel.warning);
end AssertWarning;
