// 11.2.7: the condition of a when-statement shall be a Boolean scalar or vector expression
model WhenNotBoolean
  Real x;
algorithm
  when integer(time) then
    x := time;
  end when;
end WhenNotBoolean;
