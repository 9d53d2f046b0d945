// 3.7.5: reinit can only be applied in the body of a when-clause
model ReinitOutsideWhen
  Real x(start = 0, fixed = true);
  Boolean b = x > 1;
equation
  der(x) = 1;
  if b then
    reinit(x, 0);
  end if;
end ReinitOutsideWhen;
