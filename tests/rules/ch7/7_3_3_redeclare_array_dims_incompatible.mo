// 7.3.3: redeclared array dimensions must satisfy the subtyping rules (Real p[3] cannot become p[2])
model A
  replaceable parameter Real p[3] = {1, 2, 3};
end A;

model RedeclareArrayDimsIncompatible
  extends A(redeclare parameter Real p[2]);
end RedeclareArrayDimsIncompatible;
