model RedeclareUnknown
  model Const
    output Real y = 1;
  end Const;
  model System
    replaceable model S = Const;
    S s;
  end System;
  System a(redeclare model T = Const);
end RedeclareUnknown;
