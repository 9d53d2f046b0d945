model BadExpression
  Real x;
equation
  x = 2 * * 3;
end BadExpression;
