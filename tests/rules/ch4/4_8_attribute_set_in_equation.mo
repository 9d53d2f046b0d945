// 4.8: attribute values can only be defined using a modification (not constrained by equations)
model AttributeSetInEquation
  Real x = 2;
equation
  x.start = 1;
end AttributeSetInEquation;
