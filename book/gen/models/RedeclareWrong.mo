model RedeclareWrong
  partial model Source
    output Real y;
  end Source;
  model Const
    extends Source;
  equation
    y = 1;
  end Const;
  model Counter "has no output y"
    Real n = time;
  end Counter;
  model Plant
    replaceable model S = Const constrainedby Source;
    S s;
  end Plant;
  Plant a(redeclare model S = Counter);
end RedeclareWrong;
