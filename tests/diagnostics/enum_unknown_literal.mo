model EnumUnknownLiteral
  type Mode = enumeration(off, low, high);
  parameter Mode m = Mode.hgh;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end EnumUnknownLiteral;
