// 7.2.5: a non-each modifier on an array of components is split and its size must match the array size
model C
  parameter Real d = 0;
end C;

model SplitSizeMismatch
  C c[3](d = {1, 2});
end SplitSizeMismatch;
