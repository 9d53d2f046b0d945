// 5.3.2: in a call c.f(), each leading component must be scalar (array needs c[j])
model Sub
  function f
    input Real u;
    output Real y;
  algorithm
    y := 2 * u;
  end f;
end Sub;

model CallViaArrayComponent
  Sub s[2];
  Real z = s.f(1);
end CallViaArrayComponent;
