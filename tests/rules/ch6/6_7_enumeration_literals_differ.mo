// 6.7: type-compatible expressions: enumeration operands must have the same literals in the same order
type E1 = enumeration(a, b);
type E2 = enumeration(a, c);

model EnumerationLiteralsDiffer
  parameter Boolean b = true;
  parameter E1 e = if b then E1.a else E2.a;
end EnumerationLiteralsDiffer;
