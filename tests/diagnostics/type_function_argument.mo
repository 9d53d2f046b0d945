// A Boolean given to a mathematical function.
model TypeFunctionArgument
  parameter Boolean b = false;
  Real y;
equation
  y = sin(b);
end TypeFunctionArgument;
