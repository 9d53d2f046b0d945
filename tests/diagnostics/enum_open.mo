model EnumOpen
  type Mode = enumeration(:);
  parameter Mode m;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end EnumOpen;
