// A mass between a spring and a damper fixed to the housing, started at s = 0.1 with
// `fixed = true` on the mass (Rtc.Mechanics.Translational). The damper's der(flange_b.s) puts
// the mass position and every connected flange in one alias set with a state; the set must
// keep the mass's start value. m = 1, c = 4, d = 0.5: ω0 = 2, ζ = 0.125, a = ζω0 = 0.25,
// ωd = ω0·sqrt(1 − ζ²); s(t) = 0.1·exp(−a t)·(cos ωd t + a/ωd·sin ωd t).
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
  annotation(experiment(StopTime = 5, Interval = 0.01));
end MassStart;
