// 3.7.5: sample(start, interval): start and interval must be parameter expressions
model SampleStartNotParameter
  Real x = time;
  discrete Real d(start = 0, fixed = true);
equation
  when sample(x, 0.1) then
    d = pre(d) + 1;
  end when;
end SampleStartNotParameter;
