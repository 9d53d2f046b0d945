model HardStart "an algebraic equation that Newton needs more than 10 iterations to solve from y = 0"
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x + 0.001*y;
  y^3 + y = 1000*(1 + x);
end HardStart;
