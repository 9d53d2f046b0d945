// 3.7.5: sample: start and interval must be subtypes of Real or Integer
model SampleIntervalBoolean
  discrete Real d(start = 0, fixed = true);
equation
  when sample(0, true) then
    d = pre(d) + 1;
  end when;
end SampleIntervalBoolean;
