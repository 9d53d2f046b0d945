// 3.7.1: Integer(e) conversion requires an enumeration argument
type E = enumeration(a, b);
model IntegerOfReal
  Integer i = Integer(2.5);
end IntegerOfReal;
