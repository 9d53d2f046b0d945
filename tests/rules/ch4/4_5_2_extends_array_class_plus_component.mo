// 4.5.2: a component may not be combined with an extends from an array class
model Integrator
  parameter Real k = 1;
  Real x(start = 0, fixed = true);
equation
  der(x) = k;
end Integrator;
model Integrators = Integrator[3];
model ExtendsArrayClassPlusComponent
  extends Integrators;
  Real y = 1;
end ExtendsArrayClassPlusComponent;
