// 5.3.2: a call through a component name (c.f()) must find a non-operator function
model Sub
  model G
    Real a = 1;
  end G;
  function f
    input Real u;
    output Real y;
  algorithm
    y := 2 * u;
  end f;
end Sub;

model CallViaComponentNotFunction
  Sub s;
  Real z = s.G(1);
end CallViaComponentNotFunction;
