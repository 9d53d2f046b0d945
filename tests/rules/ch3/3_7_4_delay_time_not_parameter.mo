// 3.7.4: delay without delayMax: delayTime must be a parameter expression
model DelayTimeNotParameter
  Real x = time;
  Real dt = 0.5 + 0.1 * sin(time);
  Real y = delay(x, dt);
end DelayTimeNotParameter;
