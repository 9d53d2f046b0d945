model Alg
  Real x(start = 0, fixed = true);
  Real y, total;
  Real v[3];
equation
  der(x) = 1;
algorithm
  y := 2 * x;
  y := y + 1;
  for i in 1:3 loop
    v[i] := i * x;
  end for;
  total := sum(v);
end Alg;
