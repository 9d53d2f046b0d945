// A Real where the condition of an if-expression needs a Boolean.
model TypeRealCondition
  Real x(start = 1, fixed = true);
equation
  der(x) = if x then -1 else 1;
end TypeRealCondition;
