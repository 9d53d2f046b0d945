// 3.7.5: sample: the interval must be a positive number
model SampleIntervalNegative
  discrete Real d(start = 0, fixed = true);
equation
  when sample(0, -0.1) then
    d = pre(d) + 1;
  end when;
end SampleIntervalNegative;
