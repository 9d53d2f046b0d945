model NotConstantSize
  Real n(start = 2);
  Real x[n];
equation
  der(n) = 1;
end NotConstantSize;
