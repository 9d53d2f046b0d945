// 10.4.3: range with step j:d:k is only defined for Integer and Real operands
model BooleanRangeWithStep
  Boolean v[2] = false : true : true;
end BooleanRangeWithStep;
