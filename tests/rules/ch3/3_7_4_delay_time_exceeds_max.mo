// 3.7.4: delay: 0 <= delayTime <= delayMax must hold
model DelayTimeExceedsMax
  Real x = time;
  Real y = delay(x, 2, 1);
end DelayTimeExceedsMax;
