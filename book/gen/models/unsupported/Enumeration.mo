model Enumeration
  type Mode = enumeration(off, on);
  parameter Mode m = Mode.on;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Enumeration;
