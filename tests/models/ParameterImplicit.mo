// A parameter with `fixed = false` that the initial system determines through the model
// (specification 8.6), as the MSL's InitSpringConstant finds the spring constant that holds a
// pendulum at rest: no initial equation names k, but der(x) = 0 at x = 2 needs k·2 = 3.
model ParameterImplicit
  parameter Real k(fixed = false, start = 1);
  Real x(start = 2, fixed = true);
equation
  der(x) = -k*x + 3;
initial equation
  der(x) = 0;
end ParameterImplicit;
