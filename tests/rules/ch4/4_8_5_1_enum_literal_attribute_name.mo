// 4.8.5.1: attribute names (quantity, min, max, start, fixed) cannot be used as enumeration literals
model EnumLiteralAttributeName
  type E = enumeration(low, max);
  parameter E e = E.low;
end EnumLiteralAttributeName;
