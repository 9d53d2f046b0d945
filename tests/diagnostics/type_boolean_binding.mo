// A number bound to a Boolean.
model TypeBooleanBinding
  parameter Boolean enable = 1;
  Real x;
equation
  x = if enable then 1 else 0;
end TypeBooleanBinding;
