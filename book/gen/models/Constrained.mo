model Constrained "two states tied by an algebraic equation"
  Real x(start = 1, fixed = true);
  Real y(start = 0.5);
  Real z;
equation
  der(x) = z;
  der(y) = -z;
  x = 2*y;
end Constrained;
