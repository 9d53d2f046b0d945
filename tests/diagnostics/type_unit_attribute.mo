// A number where the unit attribute takes a String.
model TypeUnitAttribute
  Real x(unit = 1, start = 1, fixed = true);
equation
  der(x) = -x;
end TypeUnitAttribute;
