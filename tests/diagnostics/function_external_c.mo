model FunctionExternalC
  pure function cfun
    input Integer n;
    output Real y;
    external "C" y = my_c_function(n);
  end cfun;
  Real a;
equation
  a = cfun(3) * time;
end FunctionExternalC;
