// 10.1: a declared dimension size must be >= 0 (implicit assertion)
model NegativeDimensionSize
  parameter Integer n = -1;
  Real x[n];
equation
  for i in 1:n loop
    x[i] = i;
  end for;
end NegativeDimensionSize;
