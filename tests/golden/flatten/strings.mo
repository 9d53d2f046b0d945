// String parameters and constants: concatenation and comparisons are known at compile time
// and select a branch; an assert message keeps the String (this panicked before:
// `constant Boolean b = s1 == s2`).
model Strings
  constant String s1 = "a";
  constant String s2 = "b" + "c";
  constant Boolean same = s1 == s2;
  parameter String mode = "fast";
  parameter Boolean fast = mode == "fast";
  parameter Real k = if fast then 10 else 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = if same then x else -k * x;
  assert(x > -1, "x of " + mode + " mode below -1 (k = " + String(k) + ", " + String(3 > 2) + ", " + String(1e-7 * k) + ")");
end Strings;
