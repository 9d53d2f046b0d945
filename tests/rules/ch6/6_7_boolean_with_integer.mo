// 6.7: type-compatible expressions: a Boolean operand needs a Boolean operand
model BooleanWithInteger
  parameter Boolean b = true;
  Boolean c = if b then true else 1;
end BooleanWithInteger;
