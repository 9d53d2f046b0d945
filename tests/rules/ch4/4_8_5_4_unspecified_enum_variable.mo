// 4.8.5.4: there can be no enumeration variables declared using enumeration(:) in a simulation model
model UnspecifiedEnumVariable
  replaceable type E = enumeration(:);
  parameter E e;
end UnspecifiedEnumVariable;
