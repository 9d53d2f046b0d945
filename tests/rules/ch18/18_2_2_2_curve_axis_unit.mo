// 18.2.2.2: it is an error if the unit of a Curve x or y expression is incompatible with the non-empty unit of its Axis
model CurveAxisUnit
  Real x(start = 1, fixed = true, unit = "m");
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "A", identifier = "f", plots = {
      Plot(curves = {Curve(y = x)}, y = Axis(unit = "s"))})}));
end CurveAxisUnit;
