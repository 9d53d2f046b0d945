model RedeclareDemo
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
end RedeclareDemo;
