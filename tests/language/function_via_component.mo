// Specification 5.3.2: a function called through a component, `s.f(u)` or `a[2].P.g(u)`, is
// looked up among the elements of the component instance's class: leading components, each
// scalar or indexed by constants down to one, then classes, the last a function. At t = 1:
// z = 2·1, w = 1 + 10, v = 3·1 (the class of `h.s` is the one its redeclaration gives).
// run: method=fe step=0.5 stop=1
// expect: z 2
// expect: w 11
// expect: v 3
model FunctionViaComponent
  model Sub
    function f
      input Real u;
      output Real y;
    algorithm
      y := 2 * u;
    end f;
    package P
      function g
        input Real u;
        output Real y;
      algorithm
        y := u + 10;
      end g;
    end P;
  end Sub;
  model Triple
    function f
      input Real u;
      output Real y;
    algorithm
      y := 3 * u;
    end f;
  end Triple;
  model Holder
    replaceable Sub s;
  end Holder;
  Sub s;
  Sub a[2];
  Holder h(redeclare Triple s);
  Real z = s.f(time);
  Real w = a[2].P.g(time);
  Real v = h.s.f(time);
end FunctionViaComponent;
