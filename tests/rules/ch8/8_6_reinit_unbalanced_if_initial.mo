// 8.6: in a when initial() clause reinit counts as an equation: non-parameter if-branches must balance
model ReinitUnbalancedIfInitial
  Real y(start = 0);
equation
  der(y) = -y;
  when initial() then
    if time > 0.5 then
      reinit(y, 1);
    end if;
  end when;
end ReinitUnbalancedIfInitial;
