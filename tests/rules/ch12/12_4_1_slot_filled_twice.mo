// 12.4.1: a named argument may not fill a slot already filled (e.g. by a positional argument)
function F
  input Real a;
  input Real b = 1;
  output Real y;
algorithm
  y := a + b;
end F;
model SlotFilledTwice
  Real x;
equation
  x = F(time, a = 1);
end SlotFilledTwice;
