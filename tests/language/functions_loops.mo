// Function bodies (specification 11.2): for-loops over ranges and arrays, while-loops whose
// condition is known at compile time, break, return, assert, and a `while` over values known
// only at run time, bounded by annotation(__rtc(maxIterations = N)).
// run: method=be step=0.25 stop=2
// expect: fact 120
// expect: tri 10
// expect: firstOver 4
// expect: early 2
// expect: steps 2
// expect: x 3
model FunctionsLoops
  function factorial
    input Integer n;
    output Integer f = 1;
  protected
    Integer k = 1;
  algorithm
    while k < n loop
      k := k + 1;
      f := f * k;
    end while;
  end factorial;
  function triangle
    input Integer n;
    output Integer s = 0;
  algorithm
    for i in 1:n loop
      s := s + i;
    end for;
  end triangle;
  function firstAbove "index of the first element above a limit, or 0"
    input Real v[:];
    input Real limit;
    output Integer k = 0;
  algorithm
    for i in 1:size(v, 1) loop
      if v[i] > limit then
        k := i;
        break;
      end if;
    end for;
  end firstAbove;
  function halfOrTwo "returns early for large u"
    input Real u;
    output Real y;
  algorithm
    y := 2;
    if u > 1 then
      return;
    end if;
    assert(u >= 0, "u must not be negative");
    y := u / 2;
  end halfOrTwo;
  function doublings "how often u doubles before it passes the limit"
    input Real u;
    input Real limit;
    output Integer n = 0;
  protected
    Real v = u;
  algorithm
    while v <= limit loop
      v := 2 * v;
      n := n + 1;
    end while;
    annotation(__rtc(maxIterations = 8));
  end doublings;
  Real x(start = 1, fixed = true);
  Integer fact = factorial(5);
  Integer tri = triangle(4);
  Integer firstOver;
  Real early;
  Integer steps;
equation
  der(x) = 1;
  firstOver = firstAbove({1, 2, 3, x + 2, 10}, 3.5);
  early = halfOrTwo(x);
  steps = doublings(x, 10);
end FunctionsLoops;
