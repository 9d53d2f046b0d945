model RecordExtendsUnknownField
  record Params
    Real gain = 1;
  end Params;
  record Params2
    extends Params(gian = 4);
  end Params2;
  parameter Params2 p = Params2();
  Real y = p.gain * time;
end RecordExtendsUnknownField;
