// The flange of a fixed housing sits at s0 = 0; a fixed start position of 0.5 for the mass
// attached to it contradicts that.
model StartConflictBound
  Rtc.Mechanics.Translational.Fixed housing(s0 = 0);
  Rtc.Mechanics.Translational.Mass mass(m = 1, s(start = 0.5, fixed = true));
equation
  connect(housing.flange, mass.flange_a);
end StartConflictBound;
