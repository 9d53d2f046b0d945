// Initial equations and initial algorithms that give a state or a discrete variable its value
// from parameters and the start time (specification 8.6): they set the start value (fixed for
// a state). x' = -x from x0 = 2 with backward Euler at h = 0.25: x(1) = 2/1.25^4 = 0.8192;
// the discrete n starts at integer((0 - 0.1)/0.3) = -1 and m = 10*n + 3 = -7.
// run: method=be step=0.25 stop=1
// expect: x 0.8192
// expect: n -1
// expect: m -7
model InitialValues
  parameter Real x0 = 2;
  parameter Real period = 0.3;
  parameter Real startTime = 0.1;
  Real x;
  discrete Integer n;
  discrete Integer m;
initial equation
  x = x0;
initial algorithm
  n := integer((time - startTime) / period);
  m := 10 * n + 3;
equation
  der(x) = -x;
  when x < -1 then
    n = pre(n) + 1;
    m = pre(m);
  end when;
end InitialValues;
