// A while-loop over a value that changes, bounded by annotation(__rtc(maxIterations = 3)):
// halvings(u) needs more than 3 iterations once u > 8, which the run reports as a failed
// assertion (x = 1 + 10 t passes 8 at t = 0.7).
model AssertWhileBound
  function halvings
    input Real u;
    output Integer n = 0;
  protected
    Real v = u;
  algorithm
    while v > 1 loop
      v := v / 2;
      n := n + 1;
    end while;
    annotation(__rtc(maxIterations = 3));
  end halvings;
  Real x(start = 1, fixed = true);
  Integer k;
equation
  der(x) = 10;
  k = halvings(x);
  annotation(experiment(StopTime = 1, Interval = 0.05));
end AssertWhileBound;
