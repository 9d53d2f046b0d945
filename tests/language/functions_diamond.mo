// A function that inherits one partial function along two paths (specification 7.1: the
// same element inherited twice is one element), as Modelica.Utilities.Files.loadResource
// does.
// run: method=be step=0.25 stop=1
// expect: y 3
model FunctionsDiamond
  partial function Interface
    input Real u;
    output Real y;
  end Interface;
  function Impl
    extends Interface;
  algorithm
    y := 3 * u;
  end Impl;
  function Public
    extends Interface;
    extends Impl;
  end Public;
  Real y = Public(time);
end FunctionsDiamond;
