// 10.6.11: and / or require Boolean operands
model AndOfInteger
  Boolean b = time > 0.5;
  Integer i = 1;
  Boolean c = b and i;
end AndOfInteger;
