model Funcs
  function interpolate "table lookup with linear interpolation"
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
  function clamp
    input Real u;
    input Real lo = -1;
    input Real hi = 1;
    output Real y;
  algorithm
    if u > hi then
      y := hi;
    elseif u < lo then
      y := lo;
    else
      y := u;
    end if;
  end clamp;
  parameter Real tab[5, 2] = [0, 0; 1, 1; 2, 4; 3, 9; 4, 16];
  Real x(start = 0, fixed = true);
  Real z, c;
equation
  der(x) = 1;
  z = interpolate(tab, x);
  c = clamp(x - 1, hi = 0.5);
end Funcs;
