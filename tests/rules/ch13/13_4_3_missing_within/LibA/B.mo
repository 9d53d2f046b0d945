model B
  Real x = 1;
end B;
