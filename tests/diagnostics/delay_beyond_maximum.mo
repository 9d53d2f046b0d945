// A delay time larger than the maximum the call gives.
model DelayBeyondMaximum
  parameter Real T = 0.2;
  Real x = sin(time);
  Real y = delay(x, T, 0.1);
end DelayBeyondMaximum;
