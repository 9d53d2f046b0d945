model OuterModified
  model Body
    outer parameter Real g = 3;
    Real v(start = 0, fixed = true);
  equation
    der(v) = g;
  end Body;
  inner parameter Real g = 9.81;
  Body b;
end OuterModified;
