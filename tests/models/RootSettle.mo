// A stiff square-root law beside an oscillator the output resolves: rtc chooses radau for
// the oscillator, but radau's stage equations for der(x) = -1000 (sqrt(x) - 0.7) from
// x = 4 have no solution with x >= 0 at the default step nor at its halvings (the stage
// values overshoot below zero). Backward Euler's equation x1 + 1000 h sqrt(x1) =
// x0 + 700 h has one for every h. x settles at 0.49.
model RootSettle
  Real x(start = 4, fixed = true);
  Real y(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = -1000 * (sqrt(x) - 0.7);
  der(y) = v;
  der(v) = -y;
  annotation(experiment(StopTime = 10, Interval = 0.5));
end RootSettle;
