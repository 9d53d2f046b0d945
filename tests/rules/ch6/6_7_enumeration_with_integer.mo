// 6.7: type-compatible expressions: an enumeration operand needs an enumeration operand
type E = enumeration(a, b);

model EnumerationWithInteger
  parameter Boolean b = true;
  parameter E e = if b then E.a else 1;
end EnumerationWithInteger;
