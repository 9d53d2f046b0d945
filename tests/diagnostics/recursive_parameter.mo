model RecursiveParameter
  parameter Integer n = m;
  parameter Integer m = n;
  Real x[n];
equation
  x = zeros(n);
end RecursiveParameter;
