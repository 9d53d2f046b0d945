// 3.7.5: reinit can only be applied once for the same variable
model ReinitTwice
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
  when x > 1 then
    reinit(x, 0);
  end when;
  when x > 2 then
    reinit(x, 0.5);
  end when;
end ReinitTwice;
