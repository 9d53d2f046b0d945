model FunctionExternalC
  function cfun
    input Real u;
    output Real y;
    external "C" y = my_c_function(u);
  end cfun;
  Real a;
equation
  a = cfun(time);
end FunctionExternalC;
