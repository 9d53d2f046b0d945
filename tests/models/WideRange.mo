model WideRange "Values over the whole double range: the CSV must keep every bit of each (round-trip test)"
  Real big(start = 1e250, fixed = true) "decays from 1e250";
  Real tiny(start = 1e-200, fixed = true) "grows from 1e-200";
  Real third(start = 1/3, fixed = true) "a value with 16 significant digits";
equation
  der(big) = -50 * big;
  der(tiny) = 30 * tiny;
  der(third) = -third / 7;
  annotation(experiment(StopTime = 1, Interval = 0.01));
end WideRange;
