// 5.3.2: in a call c[j].f(), the index j must be evaluable at translation time
model Sub
  function f
    input Real u;
    output Real y;
  algorithm
    y := 2 * u;
  end f;
end Sub;

model CallViaNonconstantIndex
  Sub s[2];
  Integer i = if time > 0.5 then 2 else 1;
  Real z = s[i].f(1);
end CallViaNonconstantIndex;
