model Builtins "der() linear in parameters, built-in functions, pre, time"
  parameter Real k = 2;
  Real x(start = 1, fixed = true);
  Real y(start = 0, fixed = true);
  Real a;
  Real b;
  Real c;
  Integer n(start = 0, fixed = true) "how many times x fell below 0.5";
equation
  k*der(x) + 3*der(y) = -x;
  der(x - y) = y;
  a = sin(x) + exp(-x) + sqrt(abs(x)) + atan2(x, 1) + log10(100);
  b = min(x, y) + div(7, 2) + mod(x, 2) + integer(x) + noEvent(if x > 0 then x else -x);
  c = smooth(1, if time < 1 then time else 1) + homotopy(actual = x^2, simplified = x) + pre(n);
  when x < 0.5 then
    n = pre(n) + 1;
  end when;
end Builtins;
