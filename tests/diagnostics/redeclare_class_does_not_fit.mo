model RedeclareDoesNotFit
  partial model Source
    output Real y;
  end Source;
  model Const
    extends Source;
  equation
    y = 1;
  end Const;
  model Wrong "has no output y"
    Real z = time;
  end Wrong;
  model System
    replaceable model S = Const constrainedby Source;
    S s;
  end System;
  System a(redeclare model S = Wrong);
end RedeclareDoesNotFit;
