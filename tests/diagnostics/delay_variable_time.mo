// A delay time that changes during the run: rtc sizes the delay's buffer when compiling.
model DelayVariableTime
  Real x = sin(time);
  Real T = 0.1 + 0.05 * time;
  Real y = delay(x, T, 0.5);
end DelayVariableTime;
