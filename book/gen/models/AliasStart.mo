model AliasStart "A mass between a spring and a damper, started at s = 0.1"
  Rtc.Mechanics.Translational.Fixed fixed;
  Rtc.Mechanics.Translational.Spring spring(c = 4);
  Rtc.Mechanics.Translational.Damper damper(d = 0.5);
  Rtc.Mechanics.Translational.Mass mass(m = 1, s(start = 0.1, fixed = true));
equation
  connect(fixed.flange, spring.flange_a);
  connect(fixed.flange, damper.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(damper.flange_b, mass.flange_a);
end AliasStart;
