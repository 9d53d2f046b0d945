// 4.4.5: a modifier may not refer to a conditional component (component3(J = component1.J))
model Sub
  parameter Real J = 1;
end Sub;
model ConditionalUsedInModifier
  parameter Boolean b = true;
  Sub c1 if b;
  Sub c2(J = c1.J);
end ConditionalUsedInModifier;
