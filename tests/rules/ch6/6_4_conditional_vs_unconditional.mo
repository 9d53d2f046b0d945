// 6.4: compatibility: conditional components are only compatible with conditional components
model MB
  parameter Boolean b = true;
  parameter Real x = 1 if b;
end MB;

model MA
  parameter Boolean b = true;
  parameter Real x = 1;
end MA;

model ConditionalVsUnconditional
  replaceable model M = MA constrainedby MB;
  M m;
end ConditionalVsUnconditional;
