model TooLarge "A line of a million segments"
  parameter Integer n = 1000000;
  Real u[n](each start = 0, each fixed = true);
equation
  der(u) = -u;
end TooLarge;
