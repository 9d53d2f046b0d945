// An assert in a when-statement (11.2.7) is checked where the statement executes: at its
// events. x = sin(2 pi t) is sampled at t = 0, 0.25, 0.5, 0.75 (0, 1, 0, -1): the assertion
// fails at t = 0.75 only, although x is below -0.5 from t = 7/12 on, between samples (before
// 2026-11-29 the condition was checked after every step on the values there, and the run
// stopped at t = 0.59).
model WhenAssert
  Real x = sin(2*3.141592653589793*time);
  discrete Real y(start = 0, fixed = true);
algorithm
  when sample(0, 0.25) then
    y := x;
    assert(x > -0.5, "x below -0.5 at a sample");
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end WhenAssert;
