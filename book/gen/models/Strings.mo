model Strings "String parameters select structure and fill messages"
  parameter String mode = "fast";
  parameter Real k = if mode == "fast" then 10 else 1;
  Real x(start = 1, fixed = true);
equation
  der(x) = -k * x;
  assert(x > -1, "x of " + mode + " mode fell below -1");
end Strings;
