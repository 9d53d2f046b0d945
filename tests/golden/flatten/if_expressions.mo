// if-expressions and if-equations whose conditions change during simulation;
// built-in functions; noEvent; min/max.
model IfExpressions
  parameter Real uMax = 1;
  Real x(start = 0.5);
  Real y;
  Real z;
equation
  der(x) = if x > 0 then -sqrt(abs(x)) else noEvent(if x < -1 then 1 else 0);
  y = min(max(2*x, -uMax), uMax) + atan2(x, 1) + sign(x);
  if time < 1 then
    z = exp(-time);
  elseif time < 2 then
    z = log(time);
  else
    z = 0;
  end if;
end IfExpressions;
