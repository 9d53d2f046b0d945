model InnerOuterDemo
  model Environment
    parameter Real g = 9.81;
    Real T "ambient temperature";
  equation
    T = 20 + time;
  end Environment;
  model Body
    outer Environment env;
    outer parameter Real k;
    Real v(start = 0, fixed = true);
  equation
    der(v) = env.g * k;
  end Body;
  model Group
    inner parameter Real k = 2 "the nearer inner for the bodies of the group";
    Body b;
  end Group;
  inner Environment env(g = 10);
  inner parameter Real k = 1;
  Body a;
  Group grp;
  Real Ta = a.env.T;
end InnerOuterDemo;
