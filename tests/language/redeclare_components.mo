// Redeclaration of components (specification 7.3): a replaceable component given another
// type in an `extends` modification and in a component modification; the original
// declaration's modifiers (offset = off) are kept, the redeclaration's own are added, and a
// component without redeclaration keeps its type. The new type must fit the constraining class
// (`constrainedby Source`; without it the declared type `Const`, whose `k` Ramp lacks).
// run: method=be step=0.25 stop=1
// expect: out 2.5
// expect: h2out 4
// expect: h3out 1.5
model RedeclareComponents
  partial block Source
    parameter Real offset = 0;
    output Real y;
  end Source;
  block Const
    extends Source;
    parameter Real k = 1;
  equation
    y = offset + k;
  end Const;
  block Ramp
    extends Source;
    parameter Real slope = 1;
  equation
    y = offset + slope * time;
  end Ramp;
  model Holder
    parameter Real off = 0.5;
    replaceable Const src(offset = off) constrainedby Source;
    Real out = src.y;
  end Holder;
  model Use
    extends Holder(redeclare Ramp src(slope = 2));
    Holder h2(redeclare Ramp src(slope = 3), off = 1);
    Holder h3;
  end Use;
  Use u;
  Real out = u.out;
  Real h2out = u.h2.out;
  Real h3out = u.h3.out;
end RedeclareComponents;
