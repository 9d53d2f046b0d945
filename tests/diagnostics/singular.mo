model Singular
  Real x(start = 1);
  Real a;
  Real b;
equation
  der(x) = a + b;
  a = 2*x;
  x = 3*a;
end Singular;
