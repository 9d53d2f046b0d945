// 3.7.2: integer(x) argument shall have type Real
model IntegerOfBoolean
  parameter Boolean b = true;
  Real x = time;
  Integer k = integer(b);
end IntegerOfBoolean;
