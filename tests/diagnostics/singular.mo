model Singular
  Real x(start = 1);
  Real a;
  Real b;
equation
  der(x) = a + b;
  b = 2;
  2*b = 4;
end Singular;
