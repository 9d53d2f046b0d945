// 5.3.2: in a call through a component, names after the first class name must all be classes
record R
  Real v = 1;
  function f
    input Real u;
    output Real y;
  algorithm
    y := 2 * u;
  end f;
end R;

model Sub
  package P
    constant R r;
    function g
      input Real u;
      output Real y;
    algorithm
      y := 3 * u;
    end g;
  end P;
end Sub;

model CallViaComponentClassThenComponent
  Sub s;
  Real z = s.P.r.f(1);
end CallViaComponentClassThenComponent;
