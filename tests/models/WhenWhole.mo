// A Real array assigned whole in a when-statement (11.2.7): every element is assigned, also
// the one given the value it starts with (a[1] := 0 with start 0; the MSL's RealFFT block
// sets its first phase so). Before 2026-11-28 that element was taken as not assigned and the
// model had no equation for it.
model WhenWhole
  Real a[2](each start = 0, each fixed = true);
algorithm
  when time > 0.55 then
    a := {0, 2 * time};
  end when;
end WhenWhole;
