// 12.4.3: a parenthesized expression list is only allowed as left-hand side with a function call on the right-hand side
function F
  input Real u;
  output Real a;
  output Real b;
algorithm
  a := u;
  b := 2*u;
end F;
model ParenListRhsNotCall
  Real x, y;
algorithm
  (x, y) := {time, time};
end ParenListRhsNotCall;
