// 18.7: the absoluteValue annotation is only for a simple type or a component of a simple type
model Sub
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Sub;
model AbsoluteValueNonSimple
  Sub s annotation(absoluteValue = false);
end AbsoluteValueNonSimple;
