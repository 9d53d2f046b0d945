within LibA;
model C
  Real x = 1;
end C;
