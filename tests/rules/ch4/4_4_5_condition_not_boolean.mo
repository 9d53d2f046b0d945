// 4.4.5: the condition of a conditional component must be a Boolean scalar expression
model ConditionNotBoolean
  parameter Integer k = 1;
  Real x = 1 if k;
end ConditionNotBoolean;
