// 18.6.5.5: in a Text primitive, %par names a parameter; if the parameter does not exist it is an error
model TextUnknownParameter
  parameter Real k = 2;
  Real x(start = 1, fixed = true);
equation
  der(x) = -k * x;
  annotation(Icon(graphics = {Text(extent = {{-100, -100}, {100, 100}}, textString = "k = %nosuch")}));
end TextUnknownParameter;
