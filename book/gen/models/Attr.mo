model Attr
  Real x(start = 1, fixed = true, displayUnit = "mm", quantity = "Length", stateSelect = StateSelect.always, unit = "m");
  Real y;
equation
  der(x) = -x;
  y = x;
end Attr;
