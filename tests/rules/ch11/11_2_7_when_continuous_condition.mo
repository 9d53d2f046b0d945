// 11.2.7: the condition of a when-statement shall be a discrete-time expression
model WhenContinuousCondition
  Real x;
algorithm
  when noEvent(time > 0.5) then
    x := time;
  end when;
end WhenContinuousCondition;
