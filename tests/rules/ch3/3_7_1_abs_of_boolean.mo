// 3.7.1: abs/sign/sqrt argument must be an Integer or Real expression
model AbsOfBoolean
  parameter Boolean b = true;
  Real x = time;
  Real y = abs(b);
end AbsOfBoolean;
