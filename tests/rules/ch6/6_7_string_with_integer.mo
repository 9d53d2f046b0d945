// 6.7: type-compatible expressions: a String operand needs a String operand
model StringWithInteger
  parameter Boolean b = true;
  parameter String s = if b then "a" else 1;
end StringWithInteger;
