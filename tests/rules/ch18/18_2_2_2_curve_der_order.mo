// 18.2.2.2: in a Curve, der(v, n) must not exceed the maximum differentiation applied to v in the model
model CurveDerOrder
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "A", identifier = "f", plots = {Plot(curves = {Curve(y = der(x, 2))})})}));
end CurveDerOrder;
