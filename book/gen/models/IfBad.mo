model IfBad
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  if x > 0.5 then
    y = x;
  else
  end if;
end IfBad;
