// 7.3.3: an element declared constant cannot be redeclared
model A
  replaceable constant Real k = 1;
end A;

model RedeclareConstant
  extends A(redeclare constant Real k = 2);
end RedeclareConstant;
