// Index reduction through a function compiled out of line: the states x and y are tied by
// y = g(x), where g (a loop, so compiled out of line) is g(x) = x + x^2/2 + x^3/3. Pantelides
// differentiates the constraint: der(y) = g'(x)·der(x), a call of g's derivative. Exactly:
// x(t) = 1 - 0.5·exp(-t), y = g(x), z = der(y) = (1 + x + x^2)·(1 - x).
model Constrained
  function g
    input Real x;
    output Real y = 0;
  algorithm
    for k in 1:3 loop
      y := y + x ^ k / k;
    end for;
  end g;
  Real x(start = 0.5, fixed = true);
  Real y;
  Real z;
equation
  der(x) = 1 - x;
  der(y) = z;
  y = g(x);
end Constrained;
