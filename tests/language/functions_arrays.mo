// Array inputs and outputs (specification 12.4.2, 12.4.5): sizes `:` from the arguments,
// results sized from inputs, indexing with values known only at run time (a table lookup
// with linear interpolation whose segment search is a bounded while-loop).
// run: method=be step=0.25 stop=2.5
// expect: z 6.5
// expect: r2 5
// expect: sq3 9
// expect: p 14.25
model FunctionsArrays
  function interpolate
    input Real table[:, 2];
    input Real u;
    output Real y;
  protected
    Integer i = 1;
    Integer n = size(table, 1);
  algorithm
    while i < n - 1 and u > table[i + 1, 1] loop
      i := i + 1;
    end while;
    y := table[i, 2] + (table[i + 1, 2] - table[i, 2]) * (u - table[i, 1]) / (table[i + 1, 1] - table[i, 1]);
    annotation(__rtc(maxIterations = 3));
  end interpolate;
  function squares
    input Integer n;
    input Real scale;
    output Real y[n];
  algorithm
    for i in 1:n loop
      y[i] := scale * i * i;
    end for;
  end squares;
  function polyval "Horner's scheme"
    input Real c[:];
    input Real x;
    output Real y = 0;
  algorithm
    for k in 1:size(c, 1) loop
      y := y * x + c[k];
    end for;
  end polyval;
  function reversed
    input Real v[:];
    output Real r[size(v, 1)];
  algorithm
    for i in 1:size(v, 1) loop
      r[size(v, 1) + 1 - i] := v[i];
    end for;
  end reversed;
  parameter Real tab[5, 2] = [0, 0; 1, 1; 2, 4; 3, 9; 4, 16];
  Real x(start = 0, fixed = true);
  Real z, r2, sq3, p;
  Real sq[3];
  Real r[3];
equation
  der(x) = 1;
  z = interpolate(tab, x);
  sq = squares(3, 1);
  sq3 = sq[3];
  r = reversed({x, 5, 7});
  r2 = r[2];
  p = polyval({1, 2, 3}, x);
end FunctionsArrays;
