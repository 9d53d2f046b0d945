// 6.7: type-compatible expressions: a Real operand needs a Real or Integer operand
model RealWithBoolean
  parameter Boolean b = true;
  Real y = if b then 1.0 else true;
end RealWithBoolean;
