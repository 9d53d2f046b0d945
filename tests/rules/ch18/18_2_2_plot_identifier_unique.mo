// 18.2.2: a Plot identifier must be unique among the plots of the same Figure
model PlotIdentifierUnique
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "A", identifier = "f", plots = {
      Plot(identifier = "p", curves = {Curve(y = x)}),
      Plot(identifier = "p", curves = {Curve(y = x)})})}));
end PlotIdentifierUnique;
