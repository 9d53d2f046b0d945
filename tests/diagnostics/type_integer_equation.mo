// An Integer variable defined by a Real expression.
model TypeIntegerEquation
  Integer k;
equation
  k = 2 * time;
end TypeIntegerEquation;
