// 8.3.7: the condition of assert must be a Boolean expression
model AssertConditionNotBoolean
equation
  assert(1, "msg");
end AssertConditionNotBoolean;
