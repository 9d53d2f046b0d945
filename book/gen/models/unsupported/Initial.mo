model Initial
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  y = if initial() then 1 else 2;
end Initial;
