// 3.7.5: reinit(x, expr): expr must be type-compatible with x
model ReinitExprType
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 1 then
    reinit(x, true);
  end when;
end ReinitExprType;
