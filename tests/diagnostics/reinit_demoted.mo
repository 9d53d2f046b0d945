model ReinitDemoted "both states of a constrained set are re-initialised: index reduction keeps x (fixed start) and makes y algebraic"
  Real x(start = 1, fixed = true);
  Real y(start = 2);
  Real z;
equation
  der(x) = -x + z;
  der(y) = -z;
  y = 2*x;
  when x < 0.5 then
    reinit(y, 1);
  end when;
  when time > 2 then
    reinit(x, 0.25);
  end when;
end ReinitDemoted;
