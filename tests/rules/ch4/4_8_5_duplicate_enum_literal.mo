// 4.8.5: the enumeration literals shall be distinct within the enumeration type
model DuplicateEnumLiteral
  type E = enumeration(a, b, a);
  parameter E e = E.b;
end DuplicateEnumLiteral;
