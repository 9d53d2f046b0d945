// 8.3.6: the expression of reinit must be type-compatible with the variable
model ReinitExprTypeMismatch
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  when time > 1 then
    reinit(x, true);
  end when;
end ReinitExprTypeMismatch;
