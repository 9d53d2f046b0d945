// der of a Boolean.
model TypeDerBoolean
  Boolean b;
  Real x;
equation
  b = time > 1;
  x = der(b);
end TypeDerBoolean;
