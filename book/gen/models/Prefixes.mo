model Prefixes "prefixes, types and attributes"
  constant Real c0 = 2 "a constant";
  parameter Real p(min = 0, max = 10, unit = "s") = 3;
  parameter Integer n = 2;
  parameter Boolean on = true;
  parameter String label = "motor 1" "a String parameter: accepted and dropped";
  input Real u "a top-level input";
  output Real y "a top-level output";
  discrete Real d;
  Integer k;
  Boolean b;
  Real x(start = 1, fixed = true, nominal = 2);
  Real w = 2*x "a binding on a variable is an equation";
equation
  der(x) = -x/p + u;
  y = c0*x;
  when x < 0.5 then
    d = time "when x falls below 0.5";
  end when;
  k = n;
  b = on;
end Prefixes;
