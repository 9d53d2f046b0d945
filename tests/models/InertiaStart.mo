// The rotational twin of MassStart: an inertia between a spring and a damper fixed to the
// housing, started at phi = 0.1 (J = 1, c = 4, d = 0.5: the same closed form).
model InertiaStart
  Rtc.Mechanics.Rotational.Fixed fixed;
  Rtc.Mechanics.Rotational.Damper damper(d = 0.5);
  Rtc.Mechanics.Rotational.Spring spring(c = 4);
  Rtc.Mechanics.Rotational.Inertia inertia(J = 1, phi(start = 0.1, fixed = true));
equation
  connect(fixed.flange, damper.flange_a);
  connect(fixed.flange, spring.flange_a);
  connect(damper.flange_b, inertia.flange_a);
  connect(spring.flange_b, inertia.flange_a);
  annotation(experiment(StopTime = 5, Interval = 0.01));
end InertiaStart;
