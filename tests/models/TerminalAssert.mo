// An assert in a `when terminal()` statement (3.7.4.2, 11.2.7) is checked once, after the
// terminal event has acted, on the values at the end of the run: the MSL's RealFFT block
// asserts there that it has taken all its samples. Before 2026-11-28 it was checked after
// every step, on what the body would compute there, and the run stopped at the start.
model TerminalAssert
  parameter Integer need = 3 "samples the run must take";
  Integer n(start = 0, fixed = true);
algorithm
  when sample(0.25, 0.25) then
    n := pre(n) + 1;
  end when;
  when terminal() then
    if n < need then
      assert(false, "not enough samples: " + String(n));
    end if;
  end when;
  annotation(experiment(StopTime = 1, Interval = 0.25));
end TerminalAssert;
