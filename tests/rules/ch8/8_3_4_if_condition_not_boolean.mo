// 8.3.4: the condition of an if/elseif clause must be a scalar Boolean expression
model IfConditionNotBoolean
  Real x;
equation
  if 1 then
    x = 1;
  else
    x = 2;
  end if;
end IfConditionNotBoolean;
