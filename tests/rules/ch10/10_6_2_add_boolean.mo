// 10.6.2: a + b / a - b require numeric operands (or String for +)
model AddBoolean
  Boolean b = true;
  Real x = time;
  Real y = x + b;
end AddBoolean;
