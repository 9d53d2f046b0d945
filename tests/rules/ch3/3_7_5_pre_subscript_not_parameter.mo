// 3.7.5: pre(y): any subscripts in y must be parameter expressions
model PreSubscriptNotParameter
  Integer k = if time > 0.5 then 2 else 1;
  discrete Real v[2](each start = 0, each fixed = true);
  Real y;
equation
  when sample(0, 0.1) then
    v[1] = time;
    v[2] = 2 * time;
  end when;
  y = pre(v[k]);
end PreSubscriptNotParameter;
