// `= break` removes a value (7.2.7): b1.a.d has none left and takes its start value 1 (with
// the parameter-default warning); in b2 a modification from outside gives it 4 again. An
// extends modification may remove a variable's binding equation where the derived class
// gives the equation (c.x = 2*time, not 1).
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
  model V
    Real x = 1;
  end V;
  model C
    extends V(final x = break);
  equation
    x = 2*time;
  end C;
  B b1;
  B b2(a(d = 4));
  C c;
end BreakModifier;
