// 8.3.6: the variable of reinit must be (selectable as) a state, i.e. appear differentiated
model ReinitNotState
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  y = 2*time;
  when time > 1 then
    reinit(y, 0);
  end when;
end ReinitNotState;
