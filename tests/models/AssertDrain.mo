model AssertDrain "a tank drains below the level its assertion guards"
  parameter Real h0 = 1 "initial level";
  Real h(start = h0, fixed = true) "level, h = h0*exp(-t/2)";
equation
  der(h) = -0.5*h;
  // Fails where h0*exp(-t/2) = 1/4: t = 2*ln(4) = 2.77 s for h0 = 1.
  assert(h > 0.25, "the tank ran below a quarter of its height");
  when initial() then
    assert(h <= 1, "the tank starts overfilled");
  end when;
  annotation(experiment(StopTime = 5));
end AssertDrain;
