// Specification 5.4: an `outer` component is the `inner` component of the same name in the
// nearest enclosing instance — one instance under two names, its variables and equations made
// once. The bodies read g and T from the model's environment; the body inside the group takes
// the group's nearer `inner k`. der(v) = g·k is constant, so v(1) = g·k exactly: 10 for `a`
// (k = 1 at the top), 20 for `grp.b` (k = 2 in the group); T = 20 + time is one equation.
// run: method=be step=0.25 stop=1
// expect: a.v 10
// expect: grp.b.v 20
// expect: env.T 21
// expect: Ta 21
model InnerOuter
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
end InnerOuter;
