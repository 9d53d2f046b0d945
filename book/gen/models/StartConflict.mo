model StartConflict "Two rigidly joined masses with different fixed start positions"
  Rtc.Mechanics.Translational.Mass m1(m = 1, s(start = 0.1, fixed = true));
  Rtc.Mechanics.Translational.Mass m2(m = 2, s(start = 0.2, fixed = true));
equation
  connect(m1.flange_b, m2.flange_a);
end StartConflict;
