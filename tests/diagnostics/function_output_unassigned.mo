model FunctionOutputUnassigned
  function f
    input Real u;
    output Real y;
    output Real z;
  algorithm
    y := u;
  end f;
  Real a, b;
equation
  (a, b) = f(time);
end FunctionOutputUnassigned;
