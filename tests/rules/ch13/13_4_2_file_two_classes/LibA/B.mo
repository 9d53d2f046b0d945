within LibA;
model B
  Real x = 1;
end B;
model D
  Real y = 2;
end D;
