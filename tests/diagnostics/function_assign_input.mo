model FunctionAssignInput
  function f
    input Real u;
    output Real y;
  algorithm
    u := 2 * u;
    y := u;
  end f;
  Real a;
equation
  a = f(time);
end FunctionAssignInput;
