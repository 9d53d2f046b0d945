model Unbalanced "Two unknowns, one equation"
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x + y;
end Unbalanced;
