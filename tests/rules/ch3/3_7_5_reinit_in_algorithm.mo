// 3.7.5: reinit can only be used in a when-clause of an equation section (not in algorithms)
model ReinitInAlgorithm
  Real x(start = 0, fixed = true);
equation
  der(x) = 1;
algorithm
  when x > 1 then
    reinit(x, 0);
  end when;
end ReinitInAlgorithm;
