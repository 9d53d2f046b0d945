// 2.3.3: no enumeration literal may be named like a keyword or Real/Integer/Boolean/String
type E = enumeration(String, other);
model EnumLiteralNamedString
  E e = E.other;
end EnumLiteralNamedString;
