// 12.4.1: special-purpose operators with function syntax shall not be called with named arguments (unless noted)
model NamedArgSpecialOperator
  Real x, y;
equation
  x = time;
  y = delay(x, delayTime = 0.1);
end NamedArgSpecialOperator;
