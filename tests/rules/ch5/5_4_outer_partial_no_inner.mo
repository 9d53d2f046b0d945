// 5.4: an outer declaration of a partial class lacking a matching inner is an error
partial model Env
  parameter Real g = 9.81;
end Env;

model A
  outer Env env;
  Real x = env.g;
end A;

model OuterPartialNoInner
  A a;
end OuterPartialNoInner;
