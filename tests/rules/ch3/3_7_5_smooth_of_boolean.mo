// 3.7.5: smooth(p, expr): expr must be Real (or arrays/records of Real)
model SmoothOfBoolean
  Boolean b = time > 0.5;
  Real y = if smooth(0, b) then 1 else 0;
end SmoothOfBoolean;
