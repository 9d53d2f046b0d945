model NumSingular "structurally regular, numerically singular"
  Real x(start = 1, fixed = true);
  Real y;
  Real z;
equation
  der(x) = -x + z;
  y + z = 1;
  2*y + 2*z = x;
end NumSingular;
