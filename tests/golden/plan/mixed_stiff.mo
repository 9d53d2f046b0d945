// args: --method mixed --implicit y --step 0.001
// Mixed mode (Cellier & Kofman eq. 10.17): the slow state by forward Euler, the fast one by
// backward Euler; its equation is linear in y and is solved symbolically.
model MixedStiff
  parameter Real a = 1;
  parameter Real k = 1e4;
  Real x(start = 1, fixed = true);
  Real y(start = 0, fixed = true);
equation
  der(x) = -a*x + y;
  der(y) = k*(x - y);
end MixedStiff;
