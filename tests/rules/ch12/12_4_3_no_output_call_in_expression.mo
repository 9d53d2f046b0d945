// 12.4.3: a function call is only usable as an expression if the function has at least one output
function NoOut
  input Real u;
algorithm
  assert(u > -1, "negative");
end NoOut;
model NoOutputCallInExpression
  Real x;
equation
  x = NoOut(time);
end NoOutputCallInExpression;
