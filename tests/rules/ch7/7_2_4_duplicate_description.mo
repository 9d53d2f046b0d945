// 7.2.4: two arguments shall not give the same element two description strings
model C1
  Real x = 0;
end C1;

model DuplicateDescription
  C1 c(x = 1 "a", x(start = 2) "b");
end DuplicateDescription;
