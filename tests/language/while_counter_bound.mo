// A while-loop whose condition compares an Integer counter with a bound known at compile time
// (`while i < n - 1 and u > table[i + 1, 1]`, the MSL's table searches) is bounded by it
// without an annotation: rtc unrolls n - 1 iterations. Linear interpolation of y = x^2
// sampled at 0, 1, 2, 3, 4: at x = 2.5 it is 4 + 5/2 = 6.5.
// run: method=be step=0.25 stop=2.5
// expect: z 6.5
model WhileCounterBound
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
  end interpolate;
  parameter Real tab[5, 2] = [0, 0; 1, 1; 2, 4; 3, 9; 4, 16];
  Real x(start = 0, fixed = true);
  Real z;
equation
  der(x) = 1;
  z = interpolate(tab, x);
end WhileCounterBound;
