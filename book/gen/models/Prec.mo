model Prec "modification precedence"
  model Base
    parameter Real p = 1;
    parameter Real q = 1;
    parameter Real r = 1;
  end Base;
  model Mid
    extends Base(p = 2, q = 2);
  end Mid;
  Mid m(p = 3);
  Real x(start = 0, fixed = true);
equation
  der(x) = m.p + m.q + m.r;
end Prec;
