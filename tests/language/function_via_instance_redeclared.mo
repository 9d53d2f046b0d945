// A function called through an instance that redeclares it (5.3.2, 7.3): `world.accel(x)`
// with `World world(redeclare function accel = doubled)` calls `doubled`, not the class it
// replaces. der(x) = -2 x with x(0) = 1 and backward Euler at h = 0.5: x(1) = 0.25 (the
// replaced function, -x, would give 1/(1.5)^2).
// run: method=be step=0.5 stop=1
// expect: x 0.25
model FunctionViaInstanceRedeclared
  function doubled
    input Real r;
    output Real a;
  algorithm
    a := -2 * r;
  end doubled;
  model World
    replaceable function accel
      input Real r;
      output Real a;
    algorithm
      a := -r;
    end accel;
  end World;
  World world(redeclare function accel = doubled);
  Real x(start = 1, fixed = true);
equation
  der(x) = world.accel(x);
end FunctionViaInstanceRedeclared;
