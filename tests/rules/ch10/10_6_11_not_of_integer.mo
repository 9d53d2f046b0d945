// 10.6.11: not requires a Boolean operand
model NotOfInteger
  Boolean b = time > 0.5;
  Integer i = 1;
  Boolean c = not i;
end NotOfInteger;
