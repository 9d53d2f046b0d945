// 3.7.4: der(expr): a scalar expr must be a subtype of Real
model DerOfInteger
  Real x(start = 0);
  Real y;
  Integer i = 1;
equation
  der(x) = 1;
  y = der(i);
end DerOfInteger;
