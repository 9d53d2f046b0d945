// Specification 12.3: an impure function is called only where it runs once, not at every
// evaluation of the model: in a when-clause, an initial algorithm, a parameter's binding,
// inside pure(…) (the model then takes it as pure), or from another impure function. (The
// invalid case, an impure call in an equation, is
// tests/rules/ch12/12_3_impure_call_in_equation.mo.)
// Imp returns its input: q = p = 3; i0 = 3 from the initial algorithm; w = 2 from the
// when-clause at t = 0.5 (x = 2 t = 1 crosses 0.9 at t = 0.45, taken at the step's end);
// y = pure(Twice(x)) = 2 x = 4 at t = 1.
// run: method=be step=0.5 stop=1
// expect: q 3
// expect: i0 3
// expect: w 2
// expect: y 4
model Top
  impure function Imp
    input Real u;
    output Real y;
  algorithm
    y := u;
  end Imp;
  impure function Twice
    input Real u;
    output Real y;
  algorithm
    y := 2 * Imp(u);
  end Twice;
  parameter Real p = Imp(3);
  Real q = p;
  Real x(start = 0, fixed = true);
  Real i0(start = 0, fixed = false);
  discrete Real w(start = 0, fixed = true);
  Real y;
initial algorithm
  i0 := Imp(p);
equation
  der(x) = 2;
  der(i0) = 0;
  y = pure(Twice(x));
  when x > 0.9 then
    w = Imp(2);
  end when;
end Top;
