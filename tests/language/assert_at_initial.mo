// Specification 8.3.7 and 8.6: `assert` in a `when initial()` body (as the MSL's
// MassWithStopAndFriction checks its start position) is checked once, after initialisation,
// and not in the steps: x starts at 1 (the initial assertion x >= 0.5 holds) and decays
// below 0.5 by the stop time without stopping the run. BE at h = 0.5 to t = 2: x = 1/1.5^4.
// run: method=be step=0.5 stop=2
// expect: x 0.19753086419753085
model AssertAtInitial
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  when initial() then
    assert(x >= 0.5, "x must start at 0.5 or above");
  end when;
end AssertAtInitial;
