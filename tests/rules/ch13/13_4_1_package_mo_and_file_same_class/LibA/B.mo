within LibA;
model B
  Real x = 1;
end B;
