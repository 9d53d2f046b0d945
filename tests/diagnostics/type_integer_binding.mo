// A Real value bound to an Integer parameter: no implicit rounding.
model TypeIntegerBinding
  parameter Integer n = 2.5;
  Real x;
equation
  x = n;
end TypeIntegerBinding;
