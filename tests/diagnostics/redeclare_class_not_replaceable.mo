model RedeclareNotReplaceable
  model Const
    output Real y = 1;
  end Const;
  model Ramp
    output Real y = time;
  end Ramp;
  model System
    model S = Const;
    S s;
  end System;
  System a(redeclare model S = Ramp);
end RedeclareNotReplaceable;
