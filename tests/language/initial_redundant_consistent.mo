// Specification 8.6: with every state fixed, an initial equation is redundant; rtc checks that
// it holds at the start (then drops it) and refuses it otherwise (tests/diagnostics/
// fixed_algebraic.mo: y fixed at 2 where y = 2x + 1 = 3). Here y(start = 3, fixed = true) with
// x fixed at 1 is consistent. BE at h = 0.1 to t = 0.2: x = 1/1.1^2, y = 2x + 1.
// run: method=be step=0.1 stop=0.2
// expect: x 0.8264462809917354
// expect: y 2.6528925619834708
model InitialRedundantConsistent
  Real x(start = 1, fixed = true);
  Real y(start = 3, fixed = true);
equation
  der(x) = -x;
  y = 2*x + 1;
end InitialRedundantConsistent;
