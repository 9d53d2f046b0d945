// Specification 8.6: an over-determined initial system whose extra equations are consistent.
// Three currents of a star point, i3 = -(i1 + i2), with three initial equations that fix
// them at zero (i1 + i2 = 0, i1 - i2 = 0, i3 = 0): three for two free states. rtc solves a
// largest independent set of them and checks that the rest holds at the solution (it does:
// i3 = 0 follows), then drops it with a note. Forward Euler from zero: i1 = 1 - 0.75^4,
// i2 = 2(1 - 0.75^4) at t = 1.
// run: method=fe step=0.25 stop=1
// expect: i1 0.68359375
// expect: i2 1.3671875
// expect: i3 -2.05078125
model InitialOverdeterminedConsistent
  Real i1(start = 5);
  Real i2(start = 5);
  Real i3;
initial equation
  i1 + i2 = 0;
  i1 - i2 = 0;
  i3 = 0;
equation
  der(i1) = 1 - i1;
  der(i2) = 2 - i2;
  i3 = -i1 - i2;
end InitialOverdeterminedConsistent;
