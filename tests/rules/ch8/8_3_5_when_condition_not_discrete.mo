// 8.3.5: the condition of a when-equation shall be a discrete-time expression
model WhenConditionNotDiscrete
  Real x;
equation
  when noEvent(time > 1) then
    x = 1;
  end when;
end WhenConditionNotDiscrete;
