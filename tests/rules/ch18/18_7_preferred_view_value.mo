// 18.7: preferredView must be one of the String literals "info", "diagram", "icon", "text"
model PreferredViewValue
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(preferredView = "graph");
end PreferredViewValue;
