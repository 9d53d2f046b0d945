// 4.4.4: a discrete Real must (in a simulation model) be assigned in a when-clause
model DiscreteNotInWhen
  discrete Real d;
equation
  d = 1;
end DiscreteNotInWhen;
