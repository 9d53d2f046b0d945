// A Real assigned in a when-statement under an if (11.1.2, 8.3.5): it is a discrete-time
// variable, so the algorithm starts it from pre(b), and an event whose branch does not
// assign it keeps its value. Before 2026-11-28 it started from its start value: b went back
// to 0 at the event after the one that set it (the MSL's RealFFT examples lost their FFT).
model WhenKeep
  Integer i(start = 0, fixed = true);
  Real b(start = 0, fixed = true);
  Real a[2](each start = 0, each fixed = true);
algorithm
  when sample(0, 0.25) then
    i := pre(i) + 1;
    if i == 2 then
      b := 10 * time;
      a := {i, 2 * i};
    end if;
  end when;
end WhenKeep;
