// 5.4: outer declarations of one name lacking an inner must all be of the same class
model Env
  parameter Real g = 9.81;
end Env;

model Env2
  parameter Real g = 1.62;
end Env2;

model A
  outer Env env;
  Real x = env.g;
end A;

model B
  outer Env2 env;
  Real x = env.g;
end B;

model OuterClassesDifferNoInner
  A a;
  B b;
end OuterClassesDifferNoInner;
