// 18.6.1.2: Color components are Integer with min = 0 and max = 255
model ColorOutOfRange
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Icon(graphics = {Rectangle(extent = {{-100, -100}, {100, 100}}, lineColor = {300, 0, 0})}));
end ColorOutOfRange;
