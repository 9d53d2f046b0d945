// Specification 9.3: each connection set of input/output variables has one source of its
// signal, counted in the sets of each class's own connect-equations: an output of a
// component, a public input of the class itself; a protected connector of the class is
// given by an equation (the MSL's conditional inputs). Valid here: a block that passes its
// public input on to a component and a component's output out to its own output (each set
// one source, merged across levels into one chain), a set of a protected input of the class
// and two components' inputs, and two components' inputs fed by one output. (The invalid
// cases are tests/rules/ch9/9_3_two_sources_in_set.mo and 9_3_no_source_in_set.mo.)
// At t = 1: u = 1, y = 2 u = 2, w = 3 * 2 = 6, a = b = 2 k = 10, c = d = 3 t = 3.
// run: method=be step=0.5 stop=1
// expect: y 2
// expect: w 6
// expect: a 10
// expect: c 3
// expect: d 3
model Top
  connector RealIn = input Real;
  connector RealOut = output Real;
  block Gain
    parameter Real k = 2;
    RealIn u;
    RealOut y;
  equation
    y = k * u;
  end Gain;
  block Twice
    RealIn u;
    RealOut y;
    Gain g;
  equation
    connect(u, g.u);
    connect(g.y, y);
  end Twice;
  block Internal
    parameter Real k = 5;
    RealOut a;
    RealOut b;
    Gain ga(k = 1);
    Gain gb(k = 1);
  protected
    RealIn u_internal;
  equation
    u_internal = 2 * k;
    connect(u_internal, ga.u);
    connect(u_internal, gb.u);
    connect(ga.y, a);
    connect(gb.y, b);
  end Internal;
  Twice t;
  Gain three(k = 3);
  Internal i;
  Gain src(k = 1);
  Gain gc(k = 3), gd(k = 3);
  Real y = t.y;
  Real w = three.y;
  Real a = i.a;
  Real c = gc.y;
  Real d = gd.y;
equation
  t.u = time;
  connect(t.y, three.u);
  src.u = time;
  connect(src.y, gc.u);
  connect(src.y, gd.u);
end Top;
