// `and` of a Boolean and a Real.
model TypeAndReal
  Real x(start = 1, fixed = true);
  Real y;
equation
  der(x) = -x;
  y = if x > 0 and x then 1 else 0;
end TypeAndReal;
