// 8.4: there must be a perfect matching of variables to equations after flattening
model NoPerfectMatching
  Real x, y;
equation
  x = 1;
  x = 2;
end NoPerfectMatching;
