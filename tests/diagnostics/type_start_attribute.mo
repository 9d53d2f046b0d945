// A Boolean start value on a Real.
model TypeStartAttribute
  Real x(start = true, fixed = true);
equation
  der(x) = -x;
end TypeStartAttribute;
