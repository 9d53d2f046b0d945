// 7.2.4: two arguments of a modification shall not modify the same element (even with identical values)
model C1
  parameter Real x = 0;
end C1;

model DuplicateValueModifier
  C1 c(x = 1, x = 1);
end DuplicateValueModifier;
