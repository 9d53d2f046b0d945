model DuplicateInheritedDifferent
  partial model Base
    parameter Integer m(min = 1) = 3 "phases";
  end Base;
  model B
    parameter Integer m = 4;
    extends Base;
  end B;
  B b;
end DuplicateInheritedDifferent;
