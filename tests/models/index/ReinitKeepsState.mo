// Two states tied by y = 2 x: one degree of freedom. A when-clause re-initialises y, so index
// reduction keeps y as the state (reinit needs one, 8.6) and makes x algebraic, although x
// has the fixed start value (which becomes an initial equation: y starts at 2).
// x' = -x/3: x < 0.5 at t = 3 ln 2, where y := 1.5, so x = 0.75 then (and again each time x
// falls below 0.5).
model ReinitKeepsState
  Real x(start = 1, fixed = true);
  Real y(start = 2);
  Real z;
equation
  der(x) = -x + z;
  der(y) = -z;
  y = 2*x;
  when x < 0.5 then
    reinit(y, 1.5);
  end when;
end ReinitKeepsState;
