// Specification 7.3.2: replaceable classes and packages redeclared in a component's
// modification and in an extends; the new class's modification applies, the constraining
// clause's modification too (beneath it), and `redeclare package Medium = Medium` passes the
// enclosing instance's redeclaration down. At t = 1: a.s.y = 3·1 (Ramp, slope 3), a.d = 800
// (MediumB), b.s.y = 1 (the default Const), s.y = 2·1 (extends … redeclare model S = Ramp),
// c.pipe.d = 700 (MediumC passed down to the pipe), c.s.y = 5 (the redeclaration's own
// k = 5 wins over the constraining clause's k = 4), e.s.y = 4 (the constraining clause's
// modification applies to the new class).
// run: method=fe step=0.25 stop=1
// expect: a.s.y 3
// expect: a.d 800
// expect: b.s.y 1
// expect: b.d 1000
// expect: s.y 2
// expect: c.pipe.d 700
// expect: c.s.y 5
// expect: e.s.y 4
model RedeclareClasses
  partial model Source
    parameter Real k = 1;
    output Real y;
  end Source;
  model Const
    extends Source;
  equation
    y = k;
  end Const;
  model Ramp
    extends Source;
    parameter Real slope = 2;
  equation
    y = slope * time;
  end Ramp;
  package MediumA
    constant Real density = 1000;
  end MediumA;
  package MediumB
    constant Real density = 800;
  end MediumB;
  package MediumC
    constant Real density = 700;
  end MediumC;
  model Pipe
    replaceable package Medium = MediumA;
    Real d = Medium.density;
  end Pipe;
  model System
    replaceable model S = Const constrainedby Source;
    S s;
    replaceable package Medium = MediumA;
    Real d = Medium.density;
  end System;
  model Plant
    replaceable package Medium = MediumA;
    Pipe pipe(redeclare package Medium = Medium);
    replaceable model S = Const constrainedby Source(k = 4);
    S s;
  end Plant;
  System a(redeclare model S = Ramp(slope = 3), redeclare package Medium = MediumB);
  System b;
  extends System(redeclare model S = Ramp);
  Plant c(redeclare package Medium = MediumC, redeclare model S = Const(k = 5));
  Plant e(redeclare model S = Const);
end RedeclareClasses;
