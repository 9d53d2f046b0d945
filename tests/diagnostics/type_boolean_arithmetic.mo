// A Boolean in arithmetic: `true` is not 1.
model TypeBooleanArithmetic
  parameter Boolean b = true;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x / b;
end TypeBooleanArithmetic;
