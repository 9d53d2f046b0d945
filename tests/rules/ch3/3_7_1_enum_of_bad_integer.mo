// 3.7.1: EnumTypeName(i) is an error if i does not correspond to a literal of the enumeration
type E = enumeration(a, b, c);
model EnumOfBadInteger
  E e = E(4);
end EnumOfBadInteger;
