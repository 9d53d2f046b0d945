// 3.8.4: discrete-valued equation rule: both sides of a non-Real equation must be discrete-time expressions
model DiscreteValuedEquation
  Real x = time;
  Boolean b;
equation
  b = noEvent(x > 1);
end DiscreteValuedEquation;
