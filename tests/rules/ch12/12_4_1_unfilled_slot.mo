// 12.4.1: every input slot must be filled by an argument or a default value
function F
  input Real a;
  input Real b = 1;
  output Real y;
algorithm
  y := a + b;
end F;
model UnfilledSlot
  Real x;
equation
  x = F(b = 2);
end UnfilledSlot;
