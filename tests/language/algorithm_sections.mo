// Algorithm sections in models (specification 11.1): the variables assigned are computed
// from what the section reads, with assignments in order, if-statements and loops; the
// section is sorted with the equations.
// run: method=be step=0.25 stop=1
// expect: y 3
// expect: m 1
// expect: total 6
// expect: w 4
model AlgorithmSections
  Real x(start = 0, fixed = true);
  Real y, m, total, w;
  Real v[3];
equation
  der(x) = 1;
  w = y + m;
algorithm
  y := 2 * x;
  y := y + 1;
  if x > 0.5 then
    m := 1;
  else
    m := 0;
  end if;
  for i in 1:3 loop
    v[i] := i * x;
  end for;
  total := sum(v);
end AlgorithmSections;
