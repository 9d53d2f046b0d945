// 10.6.2: unary + and - require numeric operands
model UnaryMinusBoolean
  Boolean b = time > 0.5;
  Boolean c = -b;
end UnaryMinusBoolean;
