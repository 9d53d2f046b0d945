// The electrical twin: a resistor and an inductor in parallel with a capacitor charged to
// 1 V (Rtc.Electrical; R = 2, L = 0.25, C = 1). C·v' + v/R + i_L = 0, L·i_L' = v:
// v'' + v'/(RC) + v/(LC) = 0 with v(0) = 1, v'(0) = −1/(RC): ω0 = 2, a = 1/(2RC) = 0.25,
// v(t) = exp(−a t)·(cos ωd t − a/ωd·sin ωd t). The resistor and inductor come first, so their
// voltages (aliases of the capacitor's through the pins) are declared before it.
model ParallelRLC
  Rtc.Electrical.Resistor resistor(R = 2);
  Rtc.Electrical.Inductor inductor(L = 0.25, i(fixed = true));
  Rtc.Electrical.Capacitor capacitor(C = 1, v(start = 1, fixed = true));
  Rtc.Electrical.Ground ground;
equation
  connect(resistor.p, capacitor.p);
  connect(inductor.p, capacitor.p);
  connect(resistor.n, ground.p);
  connect(inductor.n, ground.p);
  connect(capacitor.n, ground.p);
  annotation(experiment(StopTime = 5, Interval = 0.01));
end ParallelRLC;
