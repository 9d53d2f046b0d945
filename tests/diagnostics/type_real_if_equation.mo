// A Real parameter as the condition of an if-equation.
model TypeRealIfEquation
  parameter Real on = 1;
  Real y;
equation
  if on then
    y = 1;
  else
    y = 0;
  end if;
end TypeRealIfEquation;
