model Arrays "arrays, for-equations, reductions, matrices"
  parameter Integer n = 3;
  parameter Real a[:] = {1, 2, 3, 4} "size taken from the binding";
  parameter Real M[2, 2] = [1, 2; 3, 4];
  parameter Real w[n] = {i^2 for i in 1:n} "array comprehension";
  Real x[n](each start = 0, each fixed = true);
  Real z[2, 2];
  Real s;
  Real v[2];
equation
  for i in 1:n loop
    der(x[i]) = -x[i] + w[i];
  end for;
  for i in 1:2, j in 1:2 loop
    z[i, j] = M[i, j]*x[1];
  end for;
  s = sum(x[i]*a[i] for i in 1:n) + max(a) + size(a, 1);
  v = M*x[1:2] + transpose(M)*ones(2);
end Arrays;
