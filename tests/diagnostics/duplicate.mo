model Duplicate
  Real x;
  parameter Real x = 2;
equation
  x = 1;
end Duplicate;
