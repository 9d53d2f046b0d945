model RedeclareComponentDoesNotFit
  partial model TwoPin
    Real v;
    Real i;
  end TwoPin;
  model R
    extends TwoPin;
    parameter Real r = 1;
  equation
    v = r * i;
  end R;
  model Gain "has no i"
    Real v = 2;
  end Gain;
  model A
    replaceable R part constrainedby TwoPin;
  equation
    part.i = 1;
  end A;
  A a(redeclare Gain part);
end RedeclareComponentDoesNotFit;
