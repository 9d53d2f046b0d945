// A function called through a component whose short definition modifies its base with the
// instance's parameters (5.3.2, 12.4.3; the MSL's `world.gravityAcceleration(r)`, defined in
// World as `standardGravityAcceleration(gravityType = gravityType, …)`): the modification
// reads the instance it is called through, `world.g = 2`. der(x) = -2 x with x(0) = 1 and
// backward Euler at h = 0.5: x(1) = 1/(1 + 1)^2 = 0.25.
// run: method=be step=0.5 stop=1
// expect: x 0.25
model FunctionViaInstance
  model World
    parameter Real g = 9.81;
    function standard
      input Real r;
      input Real g = 1;
      output Real a;
    algorithm
      a := -g * r;
    end standard;
    replaceable function accel = standard(g = g);
  end World;
  World world(g = 2);
  Real x(start = 1, fixed = true);
equation
  der(x) = world.accel(x);
end FunctionViaInstance;
