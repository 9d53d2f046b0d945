// 16.3: a clock variable may not be declared with the prefix parameter (nor flow, stream, discrete, constant)
model ClockParameterPrefix
  parameter Clock c = Clock(0.1);
  Real x(start = 0);
equation
  when c then
    x = previous(x) + 1;
  end when;
end ClockParameterPrefix;
