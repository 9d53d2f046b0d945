// 4.8.5.3: converting an Integer that does not correspond to a literal to an enumeration is an error
model IntegerToEnumOutOfRange
  type E = enumeration(a, b, c);
  parameter E e = E(4);
end IntegerToEnumOutOfRange;
