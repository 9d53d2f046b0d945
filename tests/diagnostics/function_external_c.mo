model FunctionExternalC
  pure function cfun
    input Integer n;
    output Real y[2];
    external "C" y = my_c_function(n);
  end cfun;
  Real a[2];
equation
  a = cfun(3) * time;
end FunctionExternalC;
