// 4.4.5: the condition of a conditional component must be a scalar expression
model ConditionNotScalar
  parameter Boolean b[1] = {true};
  Real x = 1 if b;
end ConditionNotScalar;
