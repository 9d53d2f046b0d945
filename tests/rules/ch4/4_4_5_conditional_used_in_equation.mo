// 4.4.5: a conditional component can only be modified and/or used in connections (not in equations)
model ConditionalUsedInEquation
  parameter Boolean b = true;
  Real c = 1 if b;
  Real y;
equation
  y = c;
end ConditionalUsedInEquation;
