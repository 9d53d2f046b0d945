// A record with a component of its own type: its instance would never end (this overflowed
// the stack before).
model CycleRecord
  record R
    Real a;
    R r;
  end R;
  R r;
equation
  r.a = 1;
end CycleRecord;
