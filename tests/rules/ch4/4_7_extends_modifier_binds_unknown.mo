// 4.7: modifiers of base classes follow the same rules (no binding for a variable without default binding)
partial model Sub
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = y;
end Sub;
model ExtendsModifierBindsUnknown
  extends Sub(y = 2);
end ExtendsModifierBindsUnknown;
