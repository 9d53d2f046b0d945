// 6.4: compatibility: conditions of conditional components must have equivalent contents
model MB
  parameter Boolean b = true;
  parameter Real x = 1 if b;
end MB;

model MA
  parameter Boolean b = true;
  parameter Real x = 1 if not b;
end MA;

model ConditionNotEquivalent
  replaceable model M = MA constrainedby MB;
  M m;
end ConditionNotEquivalent;
