// 8.3.6: reinit may be applied to a given variable in only one when-equation
model ReinitInTwoWhens
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  when time > 1 then
    reinit(x, 1);
  end when;
  when time > 2 then
    reinit(x, 2);
  end when;
end ReinitInTwoWhens;
