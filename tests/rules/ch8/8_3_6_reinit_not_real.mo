// 8.3.6: the first argument of reinit must be a Real variable (or array of Real variables)
model ReinitNotReal
  Real x(start = 0, fixed = true);
  Integer k(start = 0, fixed = true);
equation
  der(x) = 1;
  when sample(0, 1) then
    k = pre(k) + 1;
  end when;
  when time > 2.5 then
    reinit(k, 0);
  end when;
end ReinitNotReal;
