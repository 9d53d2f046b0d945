model FunctionUnknownArgument
  function f
    input Real u;
    input Real gain = 1;
    output Real y;
  algorithm
    y := gain * u;
  end f;
  Real a;
equation
  a = f(time, gian = 2);
end FunctionUnknownArgument;
