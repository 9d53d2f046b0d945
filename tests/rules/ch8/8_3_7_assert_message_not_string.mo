// 8.3.7: the message of assert must be a String expression
model AssertMessageNotString
equation
  assert(true, 1);
end AssertMessageNotString;
