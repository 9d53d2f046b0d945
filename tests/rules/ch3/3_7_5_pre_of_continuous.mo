// 3.7.5: pre(y): y must be a discrete-time expression (outside when-clauses)
model PreOfContinuous
  Real x = time;
  discrete Real d(start = 0, fixed = true);
  Real y;
equation
  when sample(0, 0.1) then
    d = time;
  end when;
  y = pre(x);
end PreOfContinuous;
