// 3.7.4: delay arguments (expr, delayTime, delayMax) must be subtypes of Real
model DelayOfBoolean
  Boolean b = time > 0.5;
  Real x = time;
  Real y = delay(b, 0.1);
end DelayOfBoolean;
