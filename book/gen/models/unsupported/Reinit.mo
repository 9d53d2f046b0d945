model Reinit
  Real x(start = 1, fixed = true);
equation
  der(x) = -1;
  reinit(x, 1);
end Reinit;
