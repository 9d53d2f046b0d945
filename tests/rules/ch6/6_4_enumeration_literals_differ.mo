// 6.4: compatibility: enumeration only with enumeration with the same literals in the same order (unless B is enumeration(:))
type E2 = enumeration(a, c);

model Top
  replaceable type E = enumeration(a, b);
  parameter E e = E.a;
end Top;

model EnumerationLiteralsDiffer
  extends Top(redeclare type E = E2);
end EnumerationLiteralsDiffer;
