// 11.2.1.1: a function with n results may have at most n receiving variables in a multi-assignment
function TwoOut
  input Real u;
  output Real a;
  output Real b;
algorithm
  a := u;
  b := 2*u;
end TwoOut;
model TooManyReceivers
  Real x, y, z;
algorithm
  (x, y, z) := TwoOut(time);
  z := 1;
end TooManyReceivers;
