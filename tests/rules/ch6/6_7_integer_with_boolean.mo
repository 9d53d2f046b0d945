// 6.7: type-compatible expressions: an Integer operand needs a Real or Integer operand
model IntegerWithBoolean
  Integer a[2] = {1, true};
end IntegerWithBoolean;
