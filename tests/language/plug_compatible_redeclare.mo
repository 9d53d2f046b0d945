// Specification 6.5: a redeclaration in a component's modifier is plug-compatible with the
// constraining class — what the new class adds is default-connectable: here an output
// connector and a parameter with a binding, and a parameter without one that the
// redeclaration's own modifier binds. A redeclaration of an inherited top-level
// component (in an extends clause) needs only compatibility: its new input connector is
// connected in the class that redeclares it. (The invalid cases are
// tests/rules/ch6/6_5_plug_new_input_connector.mo and 6_5_plug_new_expandable_connector.mo.)
// At t = 1: t.m.y = k * x = 3 with x = 1; d.m.y = 2 * d.m.u = 2 * t.m.y = 6; h.m.y = g x = 4.
// run: method=be step=0.5 stop=1
// expect: t.m.y 3
// expect: d.m.y 6
// expect: h.m.y 4
model Top
  connector RIn = input Real;
  connector ROut = output Real;
  model Base
    Real x = time;
  end Base;
  model WithOutput
    extends Base;
    parameter Real k = 3;
    ROut y = k * x;
  end WithOutput;
  model WithGain
    extends Base;
    parameter Real g;
    ROut y = g * x;
  end WithGain;
  model WithInput
    extends Base;
    RIn u;
    ROut y = 2 * u;
  end WithInput;
  model Holder
    replaceable Base m;
  end Holder;
  model Driven
    extends Holder(redeclare WithInput m);
    RIn v;
  equation
    connect(v, m.u);
  end Driven;
  Holder t(redeclare WithOutput m);
  Driven d;
  Holder h(redeclare WithGain m(g = 4));
equation
  d.v = t.m.y;
end Top;
