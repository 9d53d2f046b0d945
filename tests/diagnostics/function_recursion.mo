model FunctionRecursion
  function fib
    input Integer n;
    output Integer f;
  algorithm
    f := if n < 2 then n else fib(n - 1) + fib(n - 2);
  end fib;
  constant Integer f10 = fib(10);
  Real x(start = 1, fixed = true);
  Integer k;
equation
  der(x) = -f10 * 1e-3 * x;
  k = fib(integer(x));
end FunctionRecursion;
