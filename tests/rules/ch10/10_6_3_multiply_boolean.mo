// 10.6.3: multiplication requires numeric operands
model MultiplyBoolean
  Boolean b = true;
  Real x = time;
  Real y = 2 * b;
end MultiplyBoolean;
