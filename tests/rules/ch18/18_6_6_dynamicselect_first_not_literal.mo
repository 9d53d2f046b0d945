// 18.6.6: the first argument of DynamicSelect must be a literal expression
model DynamicselectFirstNotLiteral
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  annotation(Icon(graphics = {Rectangle(extent = DynamicSelect({{0, 0}, {20, x}}, {{0, 0}, {20, x}}))}));
end DynamicselectFirstNotLiteral;
