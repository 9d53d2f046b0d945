// 5.4: the inner component referenced by an outer must be of a non-partial class
partial model Env
  parameter Real g = 9.81;
end Env;

model EnvImpl
  extends Env;
end EnvImpl;

model A
  outer Env env;
  Real x = env.g;
end A;

model InnerPartial
  inner Env env;
  A a;
end InnerPartial;
