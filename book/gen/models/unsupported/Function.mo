model Function
  function f
    input Real a;
    output Real b;
  algorithm
    b := 2*a;
  end f;
  Real x(start = 1, fixed = true);
equation
  der(x) = -f(x);
end Function;
