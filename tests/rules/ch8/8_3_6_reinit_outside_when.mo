// 8.3.6: reinit can only be used in the body of a when-equation
model ReinitOutsideWhen
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
  reinit(x, 1);
end ReinitOutsideWhen;
