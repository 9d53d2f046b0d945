// 18.2.2.3: in figure texts the percent character shall be encoded %%
model PercentNotEscaped
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Documentation(figures = {
    Figure(title = "100% done", identifier = "f", plots = {Plot(curves = {Curve(y = x)})})}));
end PercentNotEscaped;
