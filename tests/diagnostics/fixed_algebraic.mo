// `fixed = true` on a variable that is not a state asks for the initial equation y = 2; with x
// fixed as well no state is left for it to determine: an over-determined initial system,
// refused rather than dropped.
model FixedAlgebraic
  Real x(start = 1, fixed = true);
  Real y(start = 2, fixed = true);
equation
  der(x) = -x;
  y = 2*x + 1;
end FixedAlgebraic;
