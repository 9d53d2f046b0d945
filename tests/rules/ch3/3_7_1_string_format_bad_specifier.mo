// 3.7.1: String format: only f e E g G (Real, Integer) and d i o x X u c (Integer) conversion specifiers
model StringFormatBadSpecifier
  parameter Real p = 1.5;
  parameter String s = String(p, format = "s");
end StringFormatBadSpecifier;
