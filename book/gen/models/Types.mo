model Types "Type errors are refused where they are written"
  parameter Boolean on = true;
  parameter Integer n = 3;
  Real x(start = 1, fixed = true);
equation
  der(x) = if on then -x * n else -x / on;
end Types;
