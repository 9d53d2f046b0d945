// Recursion evaluated at compile time (specification 12.4: functions may call themselves):
// a recursive function of a parameter, whose array result is sized from the input and whose
// branches select on the parameter (a branch it rules out is not executed), and a recursive
// Fibonacci of a constant.
// run: method=be step=0.25 stop=1
// expect: o[3] 3
// expect: o[5] 1.5
// expect: f 55
model FunctionsRecursion
  function orient
    input Integer m;
    output Real o[m];
  algorithm
    if mod(m, 2) == 0 then
      o[1:integer(m / 2)] := orient(integer(m / 2));
      o[integer(m / 2) + 1:m] := orient(integer(m / 2)) - fill(0.5, integer(m / 2));
    else
      o := {k for k in 1:m};
    end if;
  end orient;
  function fib
    input Integer n;
    output Integer f;
  algorithm
    f := if n < 2 then n else fib(n - 1) + fib(n - 2);
  end fib;
  parameter Integer m = 6;
  Real o[m];
  Integer f;
equation
  o = orient(m);
  f = fib(10);
end FunctionsRecursion;
