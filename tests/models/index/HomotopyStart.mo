model HomotopyStart "a start Newton cannot find from y = 0 or 1, damped or not: continued from a simplified equation"
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x + 0.001*y;
  0 = homotopy(actual = (y - x)^2 + 1 - 0.001*exp(y), simplified = 11.5 - y);
end HomotopyStart;
