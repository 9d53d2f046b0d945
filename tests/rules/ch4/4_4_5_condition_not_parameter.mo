// 4.4.5: the condition of a conditional component must be a parameter expression
model ConditionNotParameter
  Real x = 1 if time > 0.5;
end ConditionNotParameter;
