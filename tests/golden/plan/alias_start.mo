// args: --method trapezoid --step 0.01 --emit aliases
// A mass between a spring and a damper, both fixed to the housing (Rtc.Mechanics.Translational).
// The damper speaks of der(flange_b.s), so the flange position, the mass position and every
// connected flange form one alias set with a state. The set keeps `mass.s`, the member with
// `fixed = true`, and its start value 0.1; before, the first declared state, `damper.flange_b.s`,
// was kept with no start value and the mass started at 0.
model MassStart
  Rtc.Mechanics.Translational.Fixed fixed;
  Rtc.Mechanics.Translational.Spring spring(c = 4);
  Rtc.Mechanics.Translational.Damper damper(d = 0.5);
  Rtc.Mechanics.Translational.Mass mass(m = 1, s(start = 0.1, fixed = true));
equation
  connect(fixed.flange, spring.flange_a);
  connect(fixed.flange, damper.flange_a);
  connect(spring.flange_b, mass.flange_a);
  connect(damper.flange_b, mass.flange_a);
end MassStart;
