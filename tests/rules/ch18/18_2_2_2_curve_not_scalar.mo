// 18.2.2.2: it is an error if Curve x or y does not designate a scalar result
model CurveNotScalar
  Real x[2](each start = 1, each fixed = true);
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "A", identifier = "f", plots = {Plot(curves = {Curve(y = x)})})}));
end CurveNotScalar;
