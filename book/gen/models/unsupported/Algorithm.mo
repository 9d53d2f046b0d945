model Algorithm
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -y;
algorithm
  y := 2*x;
end Algorithm;
