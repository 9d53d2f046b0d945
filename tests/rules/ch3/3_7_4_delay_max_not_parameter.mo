// 3.7.4: delay: delayMax must be a parameter expression
model DelayMaxNotParameter
  Real x = time;
  Real dt = 0.5 + 0.1 * sin(time);
  Real y = delay(x, dt, x + 1);
end DelayMaxNotParameter;
