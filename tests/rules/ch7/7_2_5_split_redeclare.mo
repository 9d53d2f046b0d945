// 7.2.5: a split nested modifier may not contain a redeclaration that is split (needs each)
model A
  replaceable parameter Real p = 1;
end A;

model SplitRedeclare
  A a[2](redeclare parameter Real p = {1, 2});
end SplitRedeclare;
