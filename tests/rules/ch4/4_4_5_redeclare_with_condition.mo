// 4.4.5: a redeclaration of a component shall not include a condition attribute
model A
  replaceable Real x = 1;
end A;
model RedeclareWithCondition
  extends A;
  redeclare Real x = 2 if true;
end RedeclareWithCondition;
