// 18.6.1.1: in a coordinate system extent the first point's coordinates shall be less than the second point's
model CoordinateExtentReversed
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Icon(coordinateSystem(extent = {{100, 100}, {-100, -100}})));
end CoordinateExtentReversed;
