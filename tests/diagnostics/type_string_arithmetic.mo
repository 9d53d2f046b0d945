// A String parameter added to a number.
model TypeStringArithmetic
  parameter String name = "motor";
  Real y;
equation
  y = name + 1;
end TypeStringArithmetic;
