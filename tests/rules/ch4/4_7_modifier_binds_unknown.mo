// 4.7: binding equations in modifiers of model/block components only for parameters, constants, inputs, variables with default binding
model Sub
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = y;
end Sub;
model ModifierBindsUnknown
  Sub s(y = 2);
end ModifierBindsUnknown;
