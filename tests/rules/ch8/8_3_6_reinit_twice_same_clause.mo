// 8.3.6: several reinit of one variable in the same when/elsewhen clause must be in different if-branches
model ReinitTwiceSameClause
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  when time > 1 then
    reinit(x, 1);
    reinit(x, 2);
  end when;
end ReinitTwiceSameClause;
