model OuterWithoutInner
  model Body
    outer parameter Real g;
    Real v(start = 0, fixed = true);
  equation
    der(v) = g;
  end Body;
  Body b;
end OuterWithoutInner;
