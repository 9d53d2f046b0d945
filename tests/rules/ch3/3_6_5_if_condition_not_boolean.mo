// 3.6.5: the condition of an if-expression must be a Boolean expression
model IfConditionNotBoolean
  Integer i = 1;
  Real y = if i then 1.0 else 2.0;
end IfConditionNotBoolean;
