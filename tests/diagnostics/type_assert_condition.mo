// The condition of an assert is a Real.
model TypeAssertCondition
  parameter Real limit = 2;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  assert(limit, "limit must be positive");
end TypeAssertCondition;
