// A redeclaration checked against its constraining class through an inheritance cycle
// with several extends per class (found by the fuzzer: the fit check walked the bases
// without remembering them, 3^32 paths): the cycle is reported at once.
model RedeclareDoesNotFit 
  partial model Source extends Wrong; 
    output Real y;
  end Source;
  model Const extends Wrong;  extends Wrong; 
    extends Source;
  equation
    y = 5e-324;
  end Const;
  model Wrong "has no output y" extends RedeclareDoesNotFit.Const;  extends RedeclareDoesNotFit.Source;  extends RedeclareDoesNotFit.Const; 
    Real z = time;
  end Wrong;
  model System
    replaceable model S = Const constrainedby Source;
    S s;
  end System;
  System a(redeclare model S = Wrong);
end RedeclareDoesNotFit;
