// 3.7.2: ceil/floor argument shall have type Real
model FloorOfBoolean
  parameter Boolean b = true;
  Real x = time;
  Real y = floor(b);
end FloorOfBoolean;
