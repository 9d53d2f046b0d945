// 7.2.4: two arguments shall not modify the same attribute (r.start = 2, r(start = 3))
model C1
  Real x = 0;
end C1;

model DuplicateAttributeModifier
  C1 c(x.start = 2, x(start = 3));
end DuplicateAttributeModifier;
