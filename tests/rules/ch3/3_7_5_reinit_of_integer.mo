// 3.7.5: reinit(x, expr): x must be a Real variable (scalar or array)
model ReinitOfInteger
  Real x(start = 0, fixed = true);
  discrete Integer i(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 1 then
    i = pre(i) + 1;
    reinit(i, 0);
  end when;
end ReinitOfInteger;
