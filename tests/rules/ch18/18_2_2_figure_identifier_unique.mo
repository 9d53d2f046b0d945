// 18.2.2: a Figure identifier must be unique among the Figures of a class (same figures annotation and inherited ones)
model FigureIdentifierUnique
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "A", identifier = "f", plots = {Plot(curves = {Curve(y = x)})}),
    Figure(title = "B", identifier = "f", plots = {Plot(curves = {Curve(y = x)})})}));
end FigureIdentifierUnique;
