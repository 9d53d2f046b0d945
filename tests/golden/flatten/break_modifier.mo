// `= break` removes a value (7.2.7): b1.a.d has none left and takes its start value 1 (with
// the parameter-default warning); in b2 a modification from outside gives it 4 again.
model BreakModifier
  model A
    parameter Real d(start = 1) = 2;
    Real x(start = 0.5, fixed = true);
  equation
    der(x) = -d*x;
  end A;
  model B
    A a(d = break);
  end B;
  B b1;
  B b2(a(d = 4));
end BreakModifier;
