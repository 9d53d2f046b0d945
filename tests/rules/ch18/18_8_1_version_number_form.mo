// 18.8.1: a version number is "N{.N}", "N{.N} text" or starts with a non-digit
model VersionNumberForm
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(version = "3.1beta");
end VersionNumberForm;
