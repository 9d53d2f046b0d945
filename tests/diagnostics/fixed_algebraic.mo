// `fixed = true` on a variable that is not a state asks for an initial equation, which rtc
// cannot solve yet: refused rather than dropped.
model FixedAlgebraic
  Real x(start = 1, fixed = true);
  Real y(start = 2, fixed = true);
equation
  der(x) = -x;
  y = 2*x + 1;
end FixedAlgebraic;
