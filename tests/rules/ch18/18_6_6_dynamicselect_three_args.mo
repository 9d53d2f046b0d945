// 18.6.6: DynamicSelect has the syntax of a function call with two arguments
model DynamicselectThreeArgs
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Icon(graphics = {Rectangle(extent = DynamicSelect({{0, 0}, {20, 20}}, {{0, 0}, {20, x}}, {{0, 0}, {1, 1}}))}));
end DynamicselectThreeArgs;
