model EnumArithmetic
  type Mode = enumeration(off, low, high);
  parameter Mode m = Mode.low;
  Real x(start = 1, fixed = true);
equation
  der(x) = -m * x;
end EnumArithmetic;
