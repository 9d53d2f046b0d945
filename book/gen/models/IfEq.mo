model IfEq "if-equations"
  parameter Boolean useLoad = false;
  Real x(start = 1, fixed = true);
  Real y;
  Real z;
equation
  der(x) = -x + y;
  if useLoad then
    y = 2*x;
  else
    y = 0;
  end if;
  if x > 0.5 then
    z = x;
  elseif x > 0.2 then
    z = 2*x;
  else
    z = 0;
  end if;
end IfEq;
