// Partial functions extended by others, a short function definition that changes a default,
// and functions declared `external "builtin"` (the way Modelica.Math declares sin and atan2),
// which map to rtc's intrinsics (specification 12.2, 12.9).
// run: method=be step=0.25 stop=1
// expect: g 0.5
// expect: h 3
// expect: s 0.8414709848078965
// expect: t 0.7853981633974483
model FunctionsInheritance
  partial function scalarFunction
    input Real u;
    output Real y;
  end scalarFunction;
  function half
    extends scalarFunction;
  algorithm
    y := u / 2;
  end half;
  function scaled
    extends scalarFunction;
    input Real k = 1;
  algorithm
    y := k * u;
  end scaled;
  function tripled = scaled(k = 3);
  pure function mySin
    extends scalarFunction;
    external "builtin" y = sin(u);
  end mySin;
  pure function myAtan2
    input Real u1;
    input Real u2;
    output Real y;
    external "builtin" y = atan2(u1, u2);
  end myAtan2;
  Real x(start = 0, fixed = true);
  Real g, h, s, t;
equation
  der(x) = 1;
  g = half(x);
  h = tripled(x);
  s = mySin(x);
  t = myAtan2(x, 1);
end FunctionsInheritance;
