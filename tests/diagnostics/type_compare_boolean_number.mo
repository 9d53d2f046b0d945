// A Boolean compared with a number.
model TypeCompareBooleanNumber
  parameter Boolean b = true;
  Real y;
equation
  y = if b == 1 then 1 else 0;
end TypeCompareBooleanNumber;
