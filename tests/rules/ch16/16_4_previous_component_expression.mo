// 16.4: the argument of previous must be a component expression
model PreviousComponentExpression
  Real u(start = 0);
  Real y(start = 0);
equation
  when Clock(0.1) then
    u = previous(u) + 1;
    y = previous(2 * u);
  end when;
end PreviousComponentExpression;
