// 8.3.5: the condition of a when-equation shall be a Boolean scalar or vector expression
model WhenConditionNotBoolean
  Real x;
equation
  when 1 then
    x = 1;
  end when;
end WhenConditionNotBoolean;
