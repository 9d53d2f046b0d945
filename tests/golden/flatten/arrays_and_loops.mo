// Arrays with parameter sizes, for-equations, ranges, slices, matrix products,
// reductions and array attributes.
model ArraysAndLoops
  parameter Integer n = 3;
  parameter Real A[2, 2] = [1, 2; 3, 4];
  parameter Real w[n] = {i*0.5 for i in 1:n};
  Real x[n](start = {1, 2, 3}, each fixed = true);
  Real y[2];
  Real s;
equation
  der(x[1]) = -x[1];
  for i in 2:n loop
    der(x[i]) = x[i - 1] - x[i];
  end for;
  y = A*x[1:2] + {1, 1};
  s = sum(w[i]*x[i] for i in 1:n) + x[end];
end ArraysAndLoops;
