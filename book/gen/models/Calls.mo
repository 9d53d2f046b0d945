model Calls "n calls of one table lookup with a bounded while loop (out of line, or inlined)"
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
    annotation(__rtc(maxIterations = 6));
  end interpolate;
  parameter Integer n = 10 "number of calls";
  parameter Real tab[8, 2] = [0, 0; 1, 1; 2, 4; 3, 9; 4, 16; 5, 25; 6, 36; 7, 49];
  Real x[n](each start = 0, each fixed = true);
equation
  for k in 1:n loop
    der(x[k]) = interpolate(tab, 6.3 * (k - 1) / n + 0.1 * time) - x[k];
  end for;
end Calls;
