// 3.7.5: pre(y): y must be a variable (component reference) of simple type or a record component
model PreOfExpression
  discrete Real v(start = 0, fixed = true);
  Real y;
equation
  when sample(0, 0.1) then
    v = time;
  end when;
  y = pre(v + 1);
end PreOfExpression;
