model OpChange
  Real x(start = 1, fixed = true);
  Boolean b;
  Real y;
equation
  der(x) = -x;
  b = x > 0.5;
  y = if change(b) then 1 else 0;
end OpChange;
