// 18.2.2.2: Curve x and y must be result references to a variable of the model (or time)
model CurveUnknownVariable
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "A", identifier = "f", plots = {Plot(curves = {Curve(y = nosuch)})})}));
end CurveUnknownVariable;
